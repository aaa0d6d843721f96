// Counts the user-mode instructions a program executes between markers, by
// single-stepping it under ptrace: the program raises SIGUSR1 where counting
// starts and SIGUSR2 where it stops, any number of times (one_element_calls.cc
// does); the counts of all regions are added.
//
// Why not perf or valgrind: the VMs our sessions run on often expose no PMU
// (perf: "instructions not supported"), and valgrind stops with SIGILL in
// libhwy's static initializer when the hypervisor hides RDTSCP from CPUID.
// Single-stepping needs neither; it is slow (a few microseconds per
// instruction), which is fine for the ~1,000-instruction calls it is for. A
// system call counts as one instruction; a `rep` string instruction counts
// once per iteration. Only the thread that raises the markers is traced.
//
// Usage: single_step_counter <program> [args...]   prints "instructions <n>"
// With ACLCPU_COUNT_TRACE=<file>, also writes each counted instruction's
// address to <file> (hex, one per line) and the program's memory map to
// <file>.maps, for attributing the count to functions (attribute_trace.py).
#include <sys/ptrace.h>
#include <sys/types.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

// Resumes the stopped child (PTRACE_CONT or PTRACE_SINGLESTEP), delivering
// `signal` (0: none), and waits for its next stop; returns the wait status.
int Resume(pid_t child, enum __ptrace_request how, int signal) {
  if (ptrace(how, child, nullptr, reinterpret_cast<void*>(static_cast<intptr_t>(signal))) != 0) {
    std::perror("ptrace");
    return -1;
  }
  int status = 0;
  if (waitpid(child, &status, 0) != child) return -1;
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s <program> [args...]\n", argv[0]);
    return 2;
  }
  const pid_t child = fork();
  if (child == 0) {
    ptrace(PTRACE_TRACEME, 0, nullptr, nullptr);
    execvp(argv[1], argv + 1);
    std::perror("execvp");
    _exit(127);
  }
  int status = 0;
  waitpid(child, &status, 0);  // stopped at exec
  // Regions: from each SIGUSR1 to the next SIGUSR2, run freely between them;
  // other signals are passed on, the markers' own are not delivered.
  uint64_t instructions = 0;
  int regions = 0;
  const char* trace_path = std::getenv("ACLCPU_COUNT_TRACE");
  FILE* trace = trace_path != nullptr ? std::fopen(trace_path, "w") : nullptr;
  for (;;) {
    status = Resume(child, PTRACE_CONT, 0);
    while (status != -1 && WIFSTOPPED(status) && WSTOPSIG(status) != SIGUSR1) {
      status = Resume(child, PTRACE_CONT, WSTOPSIG(status));
    }
    if (status == -1 || !WIFSTOPPED(status)) break;  // the program ended
    ++regions;
    for (;;) {
      status = Resume(child, PTRACE_SINGLESTEP, 0);
      if (status == -1 || !WIFSTOPPED(status)) {
        std::fprintf(stderr, "single_step_counter: the program ended inside a counted region\n");
        return 1;
      }
      if (WSTOPSIG(status) == SIGUSR2) {
        if (trace != nullptr && regions == 1) {  // the map, while the program still runs
          const std::string copy = "cp /proc/" + std::to_string(child) + "/maps '" + trace_path + ".maps'";
          if (std::system(copy.c_str()) != 0) std::fprintf(stderr, "single_step_counter: no memory map copied\n");
        }
        break;
      }
      if (WSTOPSIG(status) == SIGTRAP) {
        ++instructions;
        user_regs_struct registers{};
        if (trace != nullptr && ptrace(PTRACE_GETREGS, child, nullptr, &registers) == 0) {
          std::fprintf(trace, "%llx\n", static_cast<unsigned long long>(registers.rip));
        }
      }
    }
  }
  if (trace != nullptr) std::fclose(trace);
  if (regions == 0) {
    std::fprintf(stderr, "single_step_counter: the program raised no SIGUSR1\n");
    return 1;
  }
  std::printf("instructions %llu\n", static_cast<unsigned long long>(instructions));
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
