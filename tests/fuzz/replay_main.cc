// A main() for the fuzz harnesses where libFuzzer is not linked (any compiler,
// the plain and sanitizer builds): runs LLVMFuzzerTestOneInput on every file
// given (directories are walked, in name order), then on --random=N inputs made
// by a fixed-seed generator, so the committed corpus and a deterministic sweep
// run in every CTest run. Exits 0 if every input ran; a failed check aborts.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int main(int argc, char** argv) {
  std::vector<std::string> files;
  long random_inputs = 0;
  unsigned seed = 20240601;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--random=", 0) == 0) {
      random_inputs = std::strtol(arg.c_str() + 9, nullptr, 10);
    } else if (arg.rfind("--seed=", 0) == 0) {
      seed = static_cast<unsigned>(std::strtoul(arg.c_str() + 7, nullptr, 10));
    } else if (std::filesystem::is_directory(arg)) {
      std::vector<std::string> found;
      for (const auto& entry : std::filesystem::directory_iterator(arg)) {
        if (entry.is_regular_file()) found.push_back(entry.path().string());
      }
      std::sort(found.begin(), found.end());
      files.insert(files.end(), found.begin(), found.end());
    } else {
      files.push_back(arg);
    }
  }
  for (const std::string& file : files) {
    std::ifstream stream(file, std::ios::binary);
    if (!stream) {
      std::fprintf(stderr, "cannot read %s\n", file.c_str());
      return 2;
    }
    const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(stream)), std::istreambuf_iterator<char>());
    LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
  }
  std::mt19937 rng(seed);
  for (long n = 0; n < random_inputs; ++n) {
    std::vector<uint8_t> bytes(rng() % 512);
    for (auto& byte : bytes) byte = static_cast<uint8_t>(rng());
    LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
  }
  std::printf("%zu corpus inputs and %ld random inputs ran without a failed check\n", files.size(), random_inputs);
  return 0;
}
