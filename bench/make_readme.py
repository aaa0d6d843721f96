#!/usr/bin/env python3
"""Turns the benchmark's per-thread-count TSVs into bench/README.md: method,
machine, the table of medians and ratios, each target met or not met, and the
worst ratios across every CPU recorded in bench/results/ (one file per CPU
model; bench/cpu_record.py). Called by run_bench.sh; reports only what was
measured. With --cpus-only it only rewrites the across-CPUs section of an
existing README (after an ISA sweep, which does not rerun the full benchmark)."""
import argparse
import csv
import datetime
import os
import glob
import platform
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cpu_record  # noqa: E402  (this CPU's bench/results file name)

IMPLS = ["aclcpu_api", "aclcpu_kernel", "roofline", "roofline_nt", "conversion_ceiling", "torch", "onednn"]
# roofline_step2(_nt) (step-2 cases only) is not a table column: the Targets cite it beside the step-2 goals.
# A target missed by less than the spread of its repetitions (coefficient of variation, %, the API's
# or its peer's, whichever is larger) is printed with that spread when it is at least this large.
SPREAD_WORTH_SHOWING = 10

PEER_NAMES = {"aclcpu_kernel": "kernel alone", "roofline": "roofline", "roofline_nt": "roofline NT",
              "conversion_ceiling": "f16 conversions alone", "torch": "PyTorch", "onednn": "oneDNN"}


def run(command):
    try:
        return subprocess.run(command, shell=True, capture_output=True, text=True, check=False).stdout.strip()
    except OSError:
        return ""


def load(results):
    cells, cases, threads, headers = {}, [], [], {}
    for name in sorted(os.listdir(results)):
        if not (name.startswith("threads-") and name.endswith(".tsv")):
            continue
        with open(os.path.join(results, name)) as f:
            for row in csv.DictReader(f, delimiter="\t"):
                t = int(row["threads"])
                if t not in threads:
                    threads.append(t)
                if row["case"] not in [c["case"] for c in cases]:
                    # TSVs from before the forward pair have no op column: all backward.
                    cases.append({"case": row["case"], "op": row.get("op") or "backward",
                                  "dtypes": row["dtypes"], "layout": row["layout"],
                                  "n": int(row["n"])})
                cells[(row["case"], t, row["impl"])] = row
        log = os.path.join(results, name[:-4] + ".log")
        if os.path.exists(log):
            with open(log) as f:
                headers[int(name[8:-4])] = [next(f).rstrip() for _ in range(5)]
    return cells, cases, sorted(threads), headers


def row_of(cells, case, t, impl):
    """impl's row on case, or None. Strided cases use the contiguous roofline of the same size."""
    name = case["case"]
    if impl in ("roofline", "roofline_nt") and case["layout"] != "contig":
        name = name.replace("/" + case["layout"] + "/", "/contig/")
    return cells.get((name, t, impl))


def gbps(cells, case, t, impl):
    """GB/s of impl on case, or None."""
    row = row_of(cells, case, t, impl)
    if row is None or not row["gbps"]:
        return None
    return float(row["gbps"])


def fmt_gbps(value):
    return "–" if value is None else ("%.2f" % value if value < 10 else "%.1f" % value)


def fmt_ratio(a, b):
    return "–" if a is None or b is None or b <= 0 else "%.2f" % (a / b)


def fmt_time(ns):
    if ns < 1e3:
        return "%.0f ns" % ns
    if ns < 1e6:
        return "%.2f µs" % (ns / 1e3)
    return "%.2f ms" % (ns / 1e6)


def table(cells, cases, threads):
    lines = ["| case | T | aclcpu API GB/s | API time/call (cv) | kernel alone (1T) | roofline | roofline NT "
             "| f16 conversions alone | PyTorch | oneDNN | API/roofline | API/roofline NT | API/PyTorch | API/oneDNN |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for case in cases:
        for t in threads:
            api_row = cells.get((case["case"], t, "aclcpu_api"))
            if api_row is None:
                continue
            api = gbps(cells, case, t, "aclcpu_api")
            time = "–" if api is None else "%s (%.0f%%)" % (fmt_time(float(api_row["median_ns"])),
                                                             100 * float(api_row["cv"]))
            g = {impl: gbps(cells, case, t, impl) for impl in IMPLS}
            star = "*" if case["layout"] != "contig" else ""
            lines.append("| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                case["case"], t, fmt_gbps(api), time, fmt_gbps(g["aclcpu_kernel"]),
                fmt_gbps(g["roofline"]) + (star if g["roofline"] else ""),
                fmt_gbps(g["roofline_nt"]) + (star if g["roofline_nt"] else ""),
                fmt_gbps(g["conversion_ceiling"]), fmt_gbps(g["torch"]), fmt_gbps(g["onednn"]),
                fmt_ratio(api, g["roofline"]), fmt_ratio(api, g["roofline_nt"]),
                fmt_ratio(api, g["torch"]), fmt_ratio(api, g["onednn"])))
    return "\n".join(lines)


def absent_notes(cells):
    notes = {}
    for (case, t, impl), row in cells.items():
        # The pattern rooflines are described once, under What is measured (the broadcast one: the full run
        # has no broadcast cases, so every case would list it as not measured).
        if (not row["gbps"] and row["note"] and not impl.startswith("roofline_step2")
                and impl not in ("roofline_transposed", "roofline_broadcast")):
            op = row.get("op") or "backward"
            dtypes = row["dtypes"] if op == "backward" else op + "/" + row["dtypes"]
            notes.setdefault((impl, row["note"]), set()).add((dtypes, row["layout"]))
    lines = []
    for (impl, note), dtypes_layouts in sorted(notes.items()):
        dtypes = sorted({d for d, _ in dtypes_layouts})
        layouts = sorted({layout for _, layout in dtypes_layouts})
        lines.append("- %s, not measured for %s (%s): %s" % (PEER_NAMES.get(impl, impl), ", ".join(dtypes),
                                                             ", ".join(layouts), note))
    return "\n".join(lines)


class Targets:
    """Each target checks a list of (label, value, limit) and is met when all pass."""

    def __init__(self, cells, cases, threads):
        self.cells, self.cases, self.threads = cells, cases, threads
        self.lines = []

    def find(self, dtypes, layout, n):
        for case in self.cases:
            if case["dtypes"] == dtypes and case["layout"] == layout and (n is None or case["n"] == n):
                return case
        return None

    def in_cache(self, dtypes):
        """(case, threads) of each contiguous in-cache cell (64K and 1M elements) of a dtype case."""
        for n in (64 << 10, 1 << 20):
            case = self.find(dtypes, "contig", n)
            for t in self.threads if case else ():
                yield case, t

    def ratio(self, case, t, impl):
        api = gbps(self.cells, case, t, "aclcpu_api")
        other = gbps(self.cells, case, t, impl)
        return None if api is None or other is None else api / other

    def ratio_cell(self, label, case, t, impl, limit):
        """A check of the API against impl on case: the API/impl ratio against `limit`, whether the run
        was disturbed, and the larger spread (coefficient of variation, %) of the two implementations'
        repetitions, which check() prints beside a cell that misses its limit."""
        spreads = [100 * float(row["cv"]) for row in (row_of(self.cells, case, t, "aclcpu_api"),
                                                      row_of(self.cells, case, t, impl))
                   if row is not None and row.get("cv")]
        return (label, self.ratio(case, t, impl), limit, False, self.disturbed(case, t, impl),
                max(spreads) if spreads else None)

    def disturbed(self, case, t, impl):
        """True when impl on more threads ran below half its 1-thread speed: on this machine that only
        happens when a fork-join waited for a descheduled thread, so the ratio says nothing."""
        one = gbps(self.cells, case, 1, impl)
        many = gbps(self.cells, case, t, impl)
        return t > 1 and one is not None and many is not None and many < 0.5 * one

    def check(self, title, checks, unit="×"):
        parts, met, missing = [], True, False
        disturbed_count = 0
        for check in checks:
            label, value, limit, at_most = check[:4]
            if len(check) > 4 and check[4] and value is not None:
                disturbed_count += 1
                parts.append("%s %.2f× (disturbed: not counted)" % (label, value))
                continue
            if value is None:
                missing = True
                parts.append("%s: not measured" % label)
                continue
            ok = value <= limit if at_most else value >= limit
            met &= ok
            text = "%s %s" % (label, ("%.0f ns" % value) if unit == "ns" else ("%.2f×" % value))
            # A miss by less than the spread of its own repetitions says little on a shared VM: the
            # spread goes beside it, so that a reader re-measures before acting on it.
            spread = check[5] if len(check) > 5 else None
            if not ok and spread is not None and spread >= SPREAD_WORTH_SHOWING:
                reach = value * (1 - spread / 100) if at_most else value * (1 + spread / 100)
                if (reach <= limit) if at_most else (reach >= limit):
                    text += " (within the repetitions' spread, %.0f %%)" % spread
            parts.append(text)
        counted = [c for c in checks if c[1] is not None and not (len(c) > 4 and c[4])]
        if not counted:
            verdict = "not measured" if not disturbed_count else "no undisturbed measurement"
        else:
            verdict = ("met" if met else "**not met**") + (" (some cells not measured)" if missing else "")
        details = (" " + "; ".join(parts) + ".") if parts else ""
        self.lines.append("- **%s**: %s.%s" % (title, verdict, details))

    def roofline_limit_note(self, dtypes):
        """PyTorch and aclcpu against the roofline in the in-cache cells of a dtype case, and the ratio to
        PyTorch that an implementation running at the roofline reaches: where aclcpu is already there, a
        target against PyTorch above that ratio is out of reach (within the noise of the measurement)."""
        parts = []
        for case, t in self.in_cache(dtypes):
            roofline, torch, api = (gbps(self.cells, case, t, impl) for impl in ("roofline", "torch", "aclcpu_api"))
            if roofline and torch and api:
                parts.append("%s %dT: PyTorch %.2f×, aclcpu API %.2f×, at the roofline %.2f× PyTorch" % (
                    case["case"], t, torch / roofline, api / roofline, roofline / torch))
        if parts:
            self.lines.append("- *%s in cache, the limit*: PyTorch and aclcpu against the ordinary-store roofline "
                              "(the same bytes moved by `c = a + b`), and the ratio to PyTorch of an implementation "
                              "running at the roofline (roofline / PyTorch): " % dtypes + "; ".join(parts) + ". "
                              "Where aclcpu is near 1×, a target well above that ratio is out of reach on this "
                              "machine and one near it is decided by the machine's noise.")

    def kernel_ceiling_notes(self, roofline_checks):
        """For each dtype case with a 64K cell below 0.85× the roofline: the kernel alone at 1K elements
        (a few KB, in L1, so the memory does not bound it) against the 64K roofline on one thread. Below
        0.85× there, the kernel's own instructions cannot keep up with the L2 at 64K, whatever the memory
        does; above it, the shortfall is in how the loop meets the L2 and in the call around it, so the
        kernel alone and the API at 64K are given beside it."""
        missed = {check[0].split("/")[0] for check in roofline_checks
                  if "/64K " in check[0] and check[1] is not None and check[1] < 0.85}
        for dtypes in sorted(missed):
            small, mid = self.find(dtypes, "contig", 1 << 10), self.find(dtypes, "contig", 64 << 10)
            kernel = gbps(self.cells, small, 1, "aclcpu_kernel") if small else None
            roofline = gbps(self.cells, mid, 1, "roofline") if mid else None
            if not (kernel and roofline):
                continue
            bound = kernel / roofline < 0.85
            line = ("- *%s at 64K, the kernel's own ceiling*: the kernel alone on %s (its data in L1, where the "
                    "memory does not bound it) runs at %.1f GB/s, %.2f× the 64K roofline on one thread: %s" % (
                        dtypes, small["case"], kernel, kernel / roofline,
                        "its instructions, not the memory, are the limit at 64K." if bound else
                        "its instructions alone would allow 0.85× or more."))
            kernel_mid, api_mid = gbps(self.cells, mid, 1, "aclcpu_kernel"), gbps(self.cells, mid, 1, "aclcpu_api")
            if not bound and kernel_mid and api_mid:
                line += (" At 64K the kernel alone reaches %.2f× the roofline (its loads and stores meeting the "
                         "L2 with its instructions in between) and the full API %.2f× (the call around it)." % (
                             kernel_mid / roofline, api_mid / roofline))
            self.lines.append(line)

    def step2_targets(self):
        """Issue 19's step-2 goals against the contiguous roofline of the same size, then what the memory
        gives step-2 traffic: the step-2 roofline against that roofline, and the API against it."""
        M = 1 << 20
        for title, dtype_list, limit in (("16-bit step-2 (1M, 16M) ≥ 0.7× roofline", ("f16", "bf16"), 0.7),
                                         ("f32 step-2 (1M, 16M) ≥ 0.8× roofline", ("f32",), 0.8)):
            checks = []
            for dtypes in dtype_list:
                for n in (M, 16 * M):
                    case = self.find(dtypes, "step2", n)
                    for t in self.threads if case else ():
                        checks.append(self.ratio_cell("%s %dT" % (case["case"], t), case, t, "roofline", limit))
            self.check(title, checks)
        step2_cells = [(case, t) for n in (M, 16 * M)
                       for case in (self.find(d, "step2", n) for d in ("f32", "f16", "bf16", "mixed_f16g_f32s_f32o"))
                       if case for t in self.threads]

        def step2_roofline(case, t):  # the better of ordinary and non-temporal stores
            return max(gbps(self.cells, case, t, "roofline_step2") or 0,
                       gbps(self.cells, case, t, "roofline_step2_nt") or 0)
        self.limit_note("step-2", "the step-2 roofline (every line of both inputs read, as any step-2 implementation "
                        "must; the better of ordinary and non-temporal stores) against the contiguous roofline the "
                        "goals above use, and the API against it", step2_cells, step2_roofline, "step-2 roofline")

    def limit_note(self, title, what, cells, ceiling_of, ceiling_name):
        """One "*title, the limit*" line: for each (case, threads) cell, a ceiling's GB/s (ceiling_of) against the
        contiguous roofline, and the API against the ceiling."""
        parts = []
        for case, t in cells:
            ceiling = ceiling_of(case, t)
            roofline, api = (gbps(self.cells, case, t, impl) for impl in ("roofline", "aclcpu_api"))
            if ceiling and roofline and api:
                parts.append("%s %dT: %s %.2f× the roofline, API %.2f× the %s" % (
                    case["case"], t, ceiling_name, ceiling / roofline, api / ceiling, ceiling_name))
        if parts:
            self.lines.append("- *%s, the limit*: %s: %s." % (title, what, "; ".join(parts)))

    def transposed_limit(self):
        """What the memory gives a transposition through aclcpu's blocks: the transposed-pattern roofline
        against the contiguous roofline the transposed goals use, and the API against it."""
        self.limit_note("transposed", "the transposed-pattern roofline (aclcpu's block walk with nothing in it: the "
                        "same reads and non-temporal writes, no arithmetic, no shuffles) against the contiguous "
                        "roofline the goals above use, and the API against it",
                        [(case, t) for case in self.cases if case["layout"] == "transposed" for t in self.threads],
                        lambda case, t: gbps(self.cells, case, t, "roofline_transposed"), "pattern")

    def evaluate(self):
        M, K = 1 << 20, 1 << 10
        checks = []
        for n in (16 * M, 64 * M):
            case = self.find("f32", "contig", n)
            if case:
                checks.append(self.ratio_cell("%s 2T vs NT roofline" % case["case"], case, 2, "roofline_nt", 0.9))
        self.check("contiguous f32 16M/64M, 2 threads ≥ 0.9× NT roofline", checks)
        checks = []
        for n in (16 * M, 64 * M):
            case = self.find("f32", "contig", n)
            if case:
                checks.append(self.ratio_cell("%s 2T vs PyTorch" % case["case"], case, 2, "torch", 1.1))
        self.check("contiguous f32 16M/64M, 2 threads ≥ 1.1× PyTorch", checks)
        checks = []
        for dtypes in sorted({c["dtypes"] for c in self.cases}):
            for case, t in self.in_cache(dtypes):
                checks.append(self.ratio_cell("%s %dT" % (case["case"], t), case, t, "roofline", 0.85))
        self.check("contiguous 64K–1M (every dtype case) ≥ 0.85× ordinary-store roofline", checks)
        self.kernel_ceiling_notes(checks)
        self.limit_note("f16 in cache", "the exact f16 conversions alone (widen + narrow per element, nothing "
                        "else, same fork-join as the roofline) against the roofline and the operator against them",
                        self.in_cache("f16"), lambda case, t: gbps(self.cells, case, t, "conversion_ceiling"),
                        "conversions alone")
        self.check("contiguous f32 64K–1M ≥ 1.0× PyTorch",
                   [self.ratio_cell("%s %dT" % (case["case"], t), case, t, "torch", 1.0)
                    for case, t in self.in_cache("f32")])
        self.roofline_limit_note("f32")
        case = self.find("f32", "contig", K)
        self.check("contiguous f32 1K, full API ≥ 5× PyTorch",
                   [self.ratio_cell("%s %dT" % (case["case"], t), case, t, "torch", 5.0)
                    for t in self.threads] if case else [])
        one = self.find("f32", "contig", 1)
        parts = []
        for t in self.threads:
            torch_row = self.cells.get((case["case"], t, "torch")) if case else None
            kernel = gbps(self.cells, case, t, "aclcpu_kernel") if case else None
            fixed_row = self.cells.get((one["case"], t, "aclcpu_api")) if one else None
            if torch_row and torch_row["median_ns"] and kernel and fixed_row and fixed_row["median_ns"]:
                budget = float(torch_row["median_ns"]) / 5
                kernel_ns = case["n"] * 12 / kernel
                parts.append("%dT: 5× PyTorch is %.0f ns a call; the kernel alone takes %.0f ns of it, the fixed "
                             "cost of a call (the 1-element call) is %.0f ns" % (
                                 t, budget, kernel_ns, float(fixed_row["median_ns"])))
        if parts:
            self.lines.append("- *f32 1K, the budget*: " + "; ".join(parts) + ". The fixed cost (two entry points "
                              "with CANN's checks, the executor, the stream, three libraries) and the kernel "
                              "together must fit in the budget.")
        self.check("contiguous bf16 64K–1M ≥ 1.8× PyTorch",
                   [self.ratio_cell("%s %dT" % (case["case"], t), case, t, "torch", 1.8)
                    for case, t in self.in_cache("bf16")])
        self.roofline_limit_note("bf16")
        checks = []
        for case in self.cases:
            if case["layout"] == "transposed":
                for t in self.threads:
                    if gbps(self.cells, case, t, "torch") is not None:
                        checks.append(self.ratio_cell("%s %dT" % (case["case"], t), case, t, "torch", 3.0))
        self.check("transposed 4096² ≥ 3× PyTorch (every dtype case PyTorch supports)", checks)
        self.transposed_limit()
        self.step2_targets()
        checks = []
        for case in self.cases:
            if case["layout"] == "contig" and case["n"] == 1:
                for t in self.threads:
                    row = self.cells.get((case["case"], t, "aclcpu_api"))
                    value = float(row["median_ns"]) if row and row["median_ns"] else None
                    checks.append(("%s %dT" % (case["case"], t), value, 200.0, True))
        self.check("1-element full-API call (phase 1 + phase 2 + synchronize) median ≤ 0.2 µs", checks, unit="ns")
        return "\n".join(self.lines)

    def evaluate_forward(self):
        """The forward pair's targets (issue 21): at the roofline of its own traffic (one read and one write
        an element; in place read-modify-write) on every layout, ahead of PyTorch in cache and at least 0.95x
        it where both stream from DRAM. self.cases holds the forward pair's cases only."""
        M, K = 1 << 20, 1 << 10
        cells_of = lambda keep: [(case, t) for case in self.cases if keep(case) for t in self.threads]
        label = lambda case, t: "%s %dT" % (case["case"], t)
        for layout, title in (("contig", "contiguous 1M–16M"), ("transposed", "transposed 4096²")):
            self.check("forward pair, %s (every dtype, out= and in place) ≥ 0.85× the roofline of its traffic"
                       % title,
                       [self.ratio_cell(label(case, t), case, t, "roofline", 0.85)
                        for case, t in cells_of(lambda c: c["layout"] == layout and c["n"] >= M)])
        self.limit_note("f16 in cache", "the exact f16 conversions alone (widen + narrow per element, one read "
                        "and one write, in place on self's own lines, same fork-join as the roofline) against the "
                        "roofline and the operator against them",
                        cells_of(lambda c: c["dtypes"] == "f16" and c["layout"] == "contig" and c["n"] == M),
                        lambda case, t: gbps(self.cells, case, t, "conversion_ceiling"), "conversions alone")
        self.transposed_limit()
        with_torch = lambda keep: [(case, t) for case, t in cells_of(keep)
                                   if gbps(self.cells, case, t, "torch") is not None]
        self.check("forward pair in cache (contiguous 1K–1M) ahead of PyTorch (every dtype PyTorch has)",
                   [self.ratio_cell(label(case, t), case, t, "torch", 1.0)
                    for case, t in with_torch(lambda c: c["layout"] == "contig" and K <= c["n"] <= M)])
        self.check("forward pair at DRAM (16M, every layout) ≥ 0.95× PyTorch",
                   [self.ratio_cell(label(case, t), case, t, "torch", 0.95)
                    for case, t in with_torch(lambda c: c["n"] >= 16 * M)])
        return "\n".join(self.lines)


def machine(results, repo):
    lscpu = {}
    for line in run("lscpu").splitlines():
        if ":" in line:
            key, value = line.split(":", 1)
            lscpu[key.strip()] = value.strip()
    fields = ["Model name", "CPU family", "Model", "CPU(s)", "Thread(s) per core", "L1d cache", "L2 cache",
              "L3 cache", "Hypervisor vendor"]
    cpu = ", ".join("%s: %s" % (f, lscpu[f]) for f in fields if f in lscpu)
    memory = run("free -g | awk '/^Mem:/ {print $2}'")
    thp = run("cat /sys/kernel/mm/transparent_hugepage/enabled")
    compiler = run("g++ --version | head -1")
    # The commit run_bench.sh recorded when the run started; the checkout's
    # otherwise (results from before it did).
    commit_file = os.path.join(results, "commit.txt")
    if os.path.exists(commit_file):
        lines = open(commit_file).read().splitlines()
        commit, dirty = (lines[0] if lines else "?"), "\n".join(lines[1:])
    else:
        commit = run("git -C '%s' rev-parse --short HEAD" % repo)
        dirty = run("git -C '%s' status --porcelain -- src include" % repo)
    with open(os.path.join(results, "load.txt")) as f:
        load = [line.strip() for line in f]
    seconds = open(os.path.join(results, "seconds.txt")).read().strip()
    other = []
    for name in sorted(os.listdir(results)):
        if name.startswith("other-load-"):
            other.append("%s thread(s): %s cores" % (name[11:-4], open(os.path.join(results, name)).read().strip()))
    return "\n".join([
        "- Date: %s" % datetime.datetime.fromtimestamp(os.path.getmtime(os.path.join(results, "seconds.txt")))
        .strftime("%Y-%m-%d %H:%M").strip(),
        "- CPU (lscpu): %s; its record: `bench/results/%s.md`" % (cpu, cpu_record.cpu_key(cpu_record.lscpu())),
        "- Memory: %s GiB; transparent huge pages: `%s`; kernel %s; %s" % (memory, thp, platform.release(),
                                                                           compiler),
        "- aclcpu: commit %s%s" % (commit, " plus uncommitted changes in src/ or include/" if dirty else ""),
        "- Load average before / after the run (the machine may be shared): `%s` / `%s`" % (
            load[0] if load else "?", load[-1] if len(load) > 1 else "?"),
        "- Wall time of the run, waits for an idle machine included: %s s" % seconds,
        "- CPU used by other processes while the benchmark ran (all busy time minus the benchmark's own, "
        "per wall second; 2 cores in all): %s" % ("; ".join(other) or "not recorded"),
    ])


def targets_preface(results):
    loads = []
    for name in sorted(os.listdir(results)):
        if name.startswith("other-load-"):
            loads.append(float(open(os.path.join(results, name)).read().strip() or 0))
    if loads and max(loads) > 0.2:
        return ("**Other processes used up to %.2f of the 2 cores during this run** (see Machine), so these "
                "verdicts, the 2-thread ones above all, reflect a shared machine; rerun `bench/run_bench.sh` "
                "on an idle one.\n\n" % max(loads))
    return ""


CPUS_BEGIN, CPUS_END = "<!-- across-cpus: written by make_readme.py -->", "<!-- /across-cpus -->"


def cpu_records(results_dir):
    """[(file name, CPU title, Ratios rows as dicts)] of every bench/results/*.md."""
    records = []
    for path in sorted(glob.glob(os.path.join(results_dir, "*.md"))):
        text = open(path).read()
        title = text.splitlines()[0].lstrip("# ").strip() if text else os.path.basename(path)
        rows, in_ratios, head = [], False, None
        for line in text.splitlines():
            if line.startswith("## "):
                in_ratios = line[3:].startswith("Ratios")
            elif in_ratios and line.startswith("|") and not line.startswith("|---"):
                cells = [c.strip() for c in line.strip().strip("|").split("|")]
                if head is None:
                    head = cells
                else:
                    rows.append(dict(zip(head, cells)))
        records.append((os.path.basename(path), title, rows))
    return records


def number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def across_cpus(results_dir):
    """Per case, the worst target / roofline and the worst ratio of a SIMD target to a lower one over every
    recorded CPU, each with the CPU, threads, targets and source it comes from."""
    records = cpu_records(results_dir)
    if not records:
        return CPUS_BEGIN + "\n(no CPU recorded in bench/results/)\n" + CPUS_END
    worst = {}  # case -> {"roof": (value, text), "lower": (value, text), "cpus": set}
    order = []
    for name, title, rows in records:
        short = re.sub(r"\.md$", "", name)
        for row in rows:
            case = row.get("case")
            if not case:
                continue
            if case not in worst:
                worst[case] = {"cpus": set()}
                order.append(case)
            entry = worst[case]
            entry["cpus"].add(short)
            where = "%s, %sT, %%s, %s" % (short, row.get("T", "?"), row.get("source", "?"))
            roof = number(row.get("target / roofline"))
            if roof is not None and ("roof" not in entry or roof < entry["roof"][0]):
                entry["roof"] = (roof, where % row.get("target", "?"))
            lower = number(row.get("worst target vs a lower one"))
            if lower is not None and ("lower" not in entry or lower < entry["lower"][0]):
                entry["lower"] = (lower, where % row.get("targets", "?"))
    lines = [CPUS_BEGIN, "",
             "Results and Targets above come from one machine (see Machine). Each CPU model the project has "
             "been measured on has its file in `bench/results/` (vendor, family, model, stepping; the ISA flags "
             "that matter, gather_data_sampling, hypervisor; its ISA sweep and any figures measured by hand); "
             "`bench/run_bench.sh --isa-sweep` adds or refreshes the file of the CPU it runs on.", "",
             "Worst ratios over every CPU recorded in `bench/results/` (%s). A target slower than a lower one "
             "by more than 15 %% (below 0.85) is what `bench/run_bench.sh --isa-sweep` flags. Sources: "
             "**Bold**: below 0.85 and confirmed (flagged by the sweep, or measured by hand); a sweep median below "
             "0.85 that its extra rounds did not confirm stays plain. \"sweep\" = that script on that CPU; \"bench run\" = the full benchmark; \"by hand\" = measured "
             "outside the bench (see the CPU's file for how and when)." % ", ".join(
                 "`%s`: %s" % (n, t) for n, t, _ in records), "",
             "| case | worst target / roofline (CPU, threads, target, source) | worst target vs a lower one (CPU, "
             "threads, targets, source) | CPUs |", "|---|---|---|---|"]
    for case in order:
        entry = worst[case]
        roof = "%.2f (%s)" % entry["roof"] if "roof" in entry else "–"
        lower = "%.2f (%s)" % entry["lower"] if "lower" in entry else "–"
        # Bold: below 0.85 and confirmed, i.e. flagged by the sweep's extra rounds or measured by hand
        # (sweep medians the extra rounds did not confirm stay plain: on a shared VM they are noise).
        if "lower" in entry and entry["lower"][0] < 0.85 and (
                "flagged" in entry["lower"][1] or "sweep" not in entry["lower"][1]):
            lower = "**" + lower + "**"
        lines.append("| %s | %s | %s | %d |" % (case, roof, lower, len(entry["cpus"])))
    return "\n".join(lines + ["", CPUS_END])


def replace_cpus_section(readme, results_dir):
    text = open(readme).read()
    section = across_cpus(results_dir)
    if CPUS_BEGIN in text and CPUS_END in text:
        start, end = text.index(CPUS_BEGIN), text.index(CPUS_END) + len(CPUS_END)
        text = text[:start] + section + text[end:]
    else:
        text = text.rstrip("\n") + "\n\n## Across CPUs\n\n" + section + "\n"
    with open(readme, "w") as f:
        f.write(text)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--results", help="the run's results directory (run_bench.sh's bench-results)")
    parser.add_argument("--repo")
    parser.add_argument("--out", required=True)
    parser.add_argument("--results-dir", help="bench/results (default: <repo>/bench/results)")
    parser.add_argument("--cpus-only", action="store_true",
                        help="only rewrite the across-CPUs section of the existing --out")
    parser.add_argument("flags", nargs="*")
    args = parser.parse_args()
    results_dir = args.results_dir or os.path.join(args.repo or ".", "bench", "results")
    if args.cpus_only:
        replace_cpus_section(args.out, results_dir)
        return
    cells, cases, threads, headers = load(args.results)

    implementations = []
    for t in threads:
        implementations.append("- %d thread(s): " % t + "; ".join(headers.get(t, [])[1:]))
    flags = "`%s`" % " ".join(args.flags) if args.flags else "none (the defaults)"

    text = f"""# aclcpu benchmark

`bench/run_bench.sh` installs Google Benchmark, libtorch and oneDNN from Debian if missing, builds
`aclcpu_bench` (CMake option `ACLCPU_BENCH=ON`), waits for an idle machine, runs the benchmark once per
thread count and writes this file (about 8 minutes on 2 cores). Everything below comes from that run.

```sh
bench/run_bench.sh                                   # the full run, rewrites bench/README.md
bench/run_bench.sh --isa-sweep                       # every SIMD target of this CPU (below, Across CPUs)
ACLCPU_NUM_THREADS=2 build-bench/bench/aclcpu_bench --benchmark_filter='f32/contig/1M'   # by hand
```

Every number in Results and Targets was measured on the one CPU named under Machine; the other CPUs
measured so far, and the worst ratios over all of them, are under Across CPUs.

The binary prints Google Benchmark's lines and then the table below for its thread count; the peers
(libtorch, oneDNN) are optional at build time and reported as absent when missing.

## What is measured

One process per thread count (aclcpu reads `ACLCPU_NUM_THREADS` once per process; the roofline, PyTorch
and oneDNN are set to the same count in that process). In each process, for every case, each
implementation runs on **the same buffers** (aclrtMalloc'd, huge-page backed, random data with about 2/3
of `self` inside the window), one implementation after the other:

- **aclcpu API**: `aclnnHardsigmoidBackwardGetWorkspaceSize` + `aclnnHardsigmoidBackward` +
  `aclrtSynchronizeStream` per call, on aclTensors created once. All ratios use this number.
- **kernel alone**: aclcpu's kernel function (`SelectKernel(...)`, SIMD target chosen as the library does)
  called directly on the buffers. Single-threaded by nature, whatever T says; not for the transposed
  layout (its blocking lives in the executor).
- **roofline / roofline NT**: STREAM-style `c = a + b` on unsigned integers of the case's element sizes,
  so it moves the same bytes (two reads, one write), with ordinary or non-temporal stores. Highway SIMD,
  one OpenMP fork-join per call from 32768 elements (1 thread below). Strided cases (marked `*`) are
  compared with the contiguous roofline of the same size.
- **step-2 roofline** (step-2 cases, cited under Targets): `c[i] = a[2i] + b[2i]` on the case's own
  buffers, the same fork-join, with ordinary and with non-temporal stores (the better one counts). A stride of two elements leaves no input line unread, so this reads twice
  the input bytes of the contiguous roofline: what the memory gives step-2 traffic, as the roofline is
  for contiguous cases (an operator can land a little above either; neither is a proof of optimality).
- **transposed-pattern roofline** (transposed cases with a dense out, cited under Targets): aclcpu's
  block walk with nothing in it — blocks of 256 input rows (128 for a 32-bit out) × 128 columns, row
  blocks outside; each input's row segments read into one scratch block (two inputs xor-ed), the next
  block's segments prefetched, and out's line segments written from it with non-temporal stores. The
  same reads and writes at the same addresses, without arithmetic or transposing shuffles: what the
  memory gives a transposition through such blocks (other block shapes, tried by hand on a Zen 5 VM,
  were none clearly cheaper, within that VM's 10–20 % noise). Row blocks split between the threads.
- **f16 conversions alone** (all-f16 contiguous cases): the roofline's loop and fork-join doing only
  what an exact f16 kernel cannot avoid — widen each grad element to float32 and narrow it back, with
  aclcpu's exact conversions (F16C on x86), XOR-ed with self so the bytes moved are the same; for the
  forward pair's f16 cases, each self element widened and narrowed back into out (in place into
  self), one read and one write like their roofline. The ceiling of any exact f16 kernel that
  converts: where the API is close to it but below 0.85× the roofline, the conversions are the limit.
  (The backward op's `avx512_fp16` kernel computes in float16 lanes and converts nothing, so it can
  run above this.)
- **PyTorch**: libtorch (Debian `libtorch-dev`) `at::hardsigmoid_backward_out` on `from_blob` tensors
  with the same views (the out= variant: the functional one allocates a new output every call).
- **oneDNN**: 2.6 has no hardsigmoid; `eltwise_clip_v2` backward (α=-3, β=3, the same strict window)
  then `eltwise_linear` ×1/6 in place — exact window, 2 passes. Its corner-case numerics differ
  (NaN/inf grads outside the window, -0, bf16 subnormals; `shared/reference/perf-baselines.md` §6).

Each implementation's output is spot-checked (257 samples against the definition) before timing.
Google Benchmark with `UseRealTime()`, `--benchmark_min_time=0.1 --benchmark_repetitions=5
--benchmark_enable_random_interleaving=true` by default: the repetitions of every case and
implementation run in one random order, so the VM's drift over minutes hits peers alike instead of
falling between them. Every number is the **median** of the repetitions, "cv" is their coefficient
of variation. Under Targets, a cell that misses its goal by less than the larger cv of the two
implementations it compares (when that is 10 % or more) says so: re-measure it before acting on it.
GB/s = useful bytes, (in1 + in2 + out element sizes) × N, over the median time (write-allocate traffic
not counted). Each implementation starts after 20 ms idle, so another library's spinning workers
(libgomp, aclcpu's pool) have gone to sleep. Google Benchmark's "Library was built as DEBUG" warning is
about Debian's libbenchmark package; aclcpu and the benchmark are built Release.
Flags passed to this run: {flags}.

Cases: dtypes f32, f16, bf16 and mixed (f16 grad, f32 self → f32 out); contiguous at 1, 1K, 64K, 1M,
16M, 64M elements; transposed (both inputs the transpose view of dense 4096×4096 buffers, dense out);
step-2 (`[::2]` views of 2N-element inputs, dense out) at 64K, 1M, 16M only (left out: 1, 1K, 64M, to
keep the run short).
The forward pair (`aclnnHardsigmoid` as `fwd/...`, `aclnnInplaceHardsigmoid` as `fwd_inplace/...`): f32,
f16, bf16, i32, contiguous at 1K, 1M, 16M and transposed (self the transpose view of a 4096² buffer, out
dense; in place written through that view); useful bytes (self + out) × N; their roofline is `c = a ^ 0`
(in place `a ^= 0`, no NT variant); PyTorch is `at::hardsigmoid_out` / `at::hardsigmoid_`. The targets
below come in two lists, the backward op's and the forward pair's. The forward pair's first measurements,
by hand, and what they taught: `bench/forward_pair_history.md`.

The ISA sweep (`bench/run_bench.sh --isa-sweep`, `bench/isa_sweep.py`; about 15 minutes) measures only
the API and the rooflines, under each SIMD target in turn: one process per target (aclcpu reads
`ACLCPU_MAX_ISA` once per process), the targets interleaved over 5 rounds, 1 thread unless `--threads=2`,
targets compared on the median over rounds of both GB/s and API / roofline of the same process, and a
target more than 15 % slower than a lower one (scalar aside) flagged only when 4 more rounds of that
case confirm it (the script then exits 1). Its cases: contiguous, step-2, broadcast (gradOutput one row
expanded over a square, stride 0; its useful bytes count that row once; also measured against the roofline
of that traffic, `c[r][j] = a[r][j] + b[j]` on its own buffers: self read, the row from L1, out written row
by row, with non-temporal stores from aclcpu's streaming footprint on), inputs transposed → dense out
and all three transposed, for f32, f16, bf16 and mixed, at 1K, 1M and 16M (4096²) elements, and the
1-element call; for the forward pair, f32, f16, bf16 and i32 contiguous at 1K, 1M and 16M and transposed
4096² out-of-place, contiguous 1M and 16M and transposed in place. Its tables go to `bench/results/<cpu>.md`,
and their worst ratios to Across CPUs below.

Implementations as this run reported them:
{chr(10).join(implementations)}

## Machine

{machine(args.results, args.repo)}

Absolute GB/s on this kind of VM drifts by 15-25% between runs; compare the ratios, which come from one
process.

## Results

{table(cells, cases, threads)}

Not measured:
{absent_notes(cells)}

## Targets

{targets_preface(args.results)}A ratio is marked *disturbed* and not counted when the peer or roofline it divides by ran, on 2
threads, below half its own 1-thread speed (a fork-join that waited for a descheduled thread).

{Targets(cells, [c for c in cases if c["op"] == "backward"], threads).evaluate()}

The forward pair (`fwd/...`, `fwd_inplace/...`; issue 21), each against the roofline of its own traffic:

{Targets(cells, [c for c in cases if c["op"] != "backward"], threads).evaluate_forward()}

## Across CPUs

{across_cpus(results_dir)}
"""
    with open(args.out, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
