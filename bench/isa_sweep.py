#!/usr/bin/env python3
"""The portability sweep: every representative case under every SIMD target this CPU supports, as GB/s
beside the memory roofline measured in the same process, flagging each case where a target is more than
15 % slower than a lower one. Exits 1 when anything is flagged. Run by `bench/run_bench.sh --isa-sweep`.

Why one process per target, and not all targets in one process: aclcpu reads ACLCPU_MAX_ISA once per
process and the target is fixed inside libopapi.so's plan (phase 1), which the benchmark cannot reach
without an internal hook in src/. Driving the public API under ACLCPU_MAX_ISA measures exactly what a
user gets, the executor's blocking and threads included (the kernel alone would miss the transposed
layouts). The cost is that two targets are never measured at the same moment, so:
- each process measures every case's API next to the roofline (`c = a + b` moving the same bytes,
  dispatched by Highway, the same code whatever ACLCPU_MAX_ISA says); targets are compared both on GB/s
  and on API / roofline of their own process (a neighbour's build that slows the machine slows both),
  and a comparison counts only when both agree (the roofline of a 1K case, ~100 ns a call, is itself
  noisy, and GB/s alone carries the machine's drift);
- rounds interleave the targets (each round runs every target once, in a rotated order), and every
  comparison is the median over rounds of the per-round ratio;
- a comparison below 0.85 is only a candidate: the candidate cases are measured again in further
  interleaved rounds, and a case is flagged only when those rounds confirm it (median below 0.85 and
  more than half of the rounds below it on both measures).
Scalar is measured but never the reference of a flag (it is the fallback; a target slower than it is
listed separately).
"""
import argparse
import csv
import datetime
import os
import re
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cpu_record  # noqa: E402  (this CPU's bench/results file and its 1-element call reference)

IMPLS_REGEX = "(aclcpu_api|roofline|roofline_nt|roofline_transposed|roofline_broadcast)"
FLAG_BELOW = 0.85  # "more than 15 % slower than a lower target"
# The roofline of a case's own traffic ("roof_pattern"), by layout: the cases that have one.
PATTERN_ROOFLINES = {"transposed": "the transposed-pattern roofline", "broadcast": "the broadcast roofline"}


def log(message):
    print("isa sweep: " + message, file=sys.stderr, flush=True)


def list_targets(bench):
    out = subprocess.run([bench, "--list_targets"], capture_output=True, text=True, check=True).stdout
    return [line.strip() for line in out.splitlines() if line.strip()]


def run_process(bench, target, threads, case_regex, min_time, tsv, with_torch):
    """One aclcpu_bench process with ACLCPU_MAX_ISA=target; returns its rows, checking that aclcpu chose
    the target asked for (ACLCPU_MAX_ISA is a cap)."""
    impls = IMPLS_REGEX if not with_torch else IMPLS_REGEX[:-1] + "|torch)"
    env = dict(os.environ, ACLCPU_MAX_ISA=target, ACLCPU_NUM_THREADS=str(threads))
    command = [bench, "--cases=isa_sweep", "--summary_tsv=" + tsv,
               "--benchmark_filter=^%s/%s(/|$)" % (case_regex, impls),
               "--benchmark_repetitions=1", "--benchmark_min_time=%g" % min_time,
               # Registration order keeps each case's buffers for all its implementations (the large
               # ones take seconds to fill) and measures the API right next to the roofline.
               "--benchmark_enable_random_interleaving=false"]
    result = subprocess.run(command, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError("%s failed (%d): %s" % (" ".join(command), result.returncode, result.stderr[-2000:]))
    chosen = re.search(r"SIMD target (\S+)", result.stdout)
    if not chosen or chosen.group(1) != target:
        raise RuntimeError("ACLCPU_MAX_ISA=%s ran target %s" % (target, chosen.group(1) if chosen else "?"))
    with open(tsv) as f:
        return list(csv.DictReader(f, delimiter="\t"))


def split_case(case_name):
    """(op prefix, dtypes, layout, size) of "f32/step2/1M" (the backward op, no prefix) or
    "fwd/f32/transposed/16M" (the forward pair: "fwd/" or "fwd_inplace/")."""
    parts = case_name.split("/")
    return ("/".join(parts[:-3]) + "/" if len(parts) > 3 else "",) + tuple(parts[-3:])


def contig_name(case_name):
    """The contiguous case of the same operator, dtypes and size, whose roofline a strided case uses."""
    op, dtypes, _, size = split_case(case_name)
    return "%s%s/contig/%s" % (op, dtypes, size)


class Measurements:
    """GB/s per (case, target, impl): a list over rounds, the roofline taken from the process's contiguous
    case of the same dtypes and size (strided cases are compared with it)."""

    def __init__(self):
        self.gbps = {}  # (case, target, impl) -> [per round]; index = round number in its phase
        self.cases = []
        self.layouts = {}

    def add(self, rows, target):
        by_case = {(row["case"], row["impl"]): row for row in rows}
        for row in rows:
            case = row["case"]
            if row["impl"] != "aclcpu_api" or not row["gbps"]:
                continue
            if case not in self.cases:
                self.cases.append(case)
                self.layouts[case] = row["layout"]
            values = {"api": float(row["gbps"])}
            # A case has at most one pattern roofline: transposed cases the transposed one, broadcast cases
            # the broadcast one.
            for impl, key in (("roofline", "roof"), ("roofline_nt", "roof_nt"), ("torch", "torch"),
                              ("roofline_transposed", "roof_pattern"), ("roofline_broadcast", "roof_pattern")):
                own = impl in ("torch", "roofline_transposed", "roofline_broadcast")  # measured on the case itself
                other = by_case.get((case if own else contig_name(case), impl))
                if other and other["gbps"]:
                    values[key] = float(other["gbps"])
            for key, value in values.items():
                self.gbps.setdefault((case, target, key), []).append(value)
            # The per-round score targets are compared on, and the API against the NT roofline and PyTorch.
            for key, other in (("score", "roof"), ("score_nt", "roof_nt"), ("vs_torch", "torch"),
                               ("vs_pattern", "roof_pattern")):
                if other in values:
                    self.gbps.setdefault((case, target, key), []).append(values["api"] / values[other])

    def median(self, case, target, key):
        values = self.gbps.get((case, target, key))
        return statistics.median(values) if values else None

    def ratios(self, case, high, low, key="score"):
        """Per-round ratios high / low of `key` (score = API / roofline, or api = GB/s), rounds paired in
        order."""
        a, b = self.gbps.get((case, high, key), []), self.gbps.get((case, low, key), [])
        return [x / y for x, y in zip(a, b) if y > 0]

    def slower(self, case, high, low):
        """(median GB/s ratio, median score ratio, rounds below 0.85 on both, rounds) when high is more
        than 15 % slower than low on both measures, else None."""
        speed, score = self.ratios(case, high, low, "api"), self.ratios(case, high, low)
        if not speed or not score:
            return None
        median_speed, median_score = statistics.median(speed), statistics.median(score)
        if median_speed >= FLAG_BELOW or median_score >= FLAG_BELOW:
            return None
        below = sum(a < FLAG_BELOW and b < FLAG_BELOW for a, b in zip(speed, score))
        return median_speed, median_score, below, len(speed)


def candidates(measured, targets):
    """(case, high, low, median GB/s ratio, rounds below, rounds) for each case and target more than 15 %
    slower than a lower target (Measurements.slower): the worst lower target per (case, high)."""
    found = []
    ranked = [t for t in targets if t != "scalar"]
    for case in measured.cases:
        for i, high in enumerate(ranked):
            worst = None
            for low in ranked[i + 1:]:
                slower = measured.slower(case, high, low)
                if slower and (worst is None or slower[0] < worst[3]):
                    worst = (case, high, low, slower[0], slower[2], slower[3])
            if worst:
                found.append(worst)
    return found


def slower_than_scalar(measured, targets):
    notes = []
    if "scalar" not in targets:
        return notes
    for case in measured.cases:
        for high in targets[:-1]:
            if high == "scalar":
                continue
            slower = measured.slower(case, high, "scalar")
            if slower:
                notes.append("%s: %s %.2f× scalar (median of %d rounds)" % (case, high, slower[0], slower[3]))
    return notes


def rotated(targets, round_index):
    """Round r starts at a different target and alternates direction, so no target always runs first or
    right after the same neighbour."""
    shift = round_index % len(targets)
    order = targets[shift:] + targets[:shift]
    return order if round_index % 2 == 0 else order[::-1]


def run_rounds(args, targets, case_regex, rounds, tag, measured, torch_target):
    for r in range(rounds):
        for target in rotated(targets, r):
            tsv = os.path.join(args.out, "%s-round%d-%s.tsv" % (tag, r + 1, target))
            started = time.time()
            rows = run_process(args.bench, target, args.threads, case_regex, args.min_time, tsv,
                               with_torch=(target == torch_target))
            measured.add(rows, target)
            log("%s round %d/%d, %s: %.0f s" % (tag, r + 1, rounds, target, time.time() - started))


def fmt(value, digits=2):
    if value is None:
        return "–"
    return ("%.*f" % (digits, value)) if value < 10 else "%.1f" % value


def sweep_table(measured, targets, flags):
    head = ("| case | roofline GB/s | roofline NT | pattern roofline | " + " | ".join(targets)
            + " | best / roofline | flag |")
    lines = [head, "|" + "---|" * (len(targets) + 6)]
    flag_of = {}
    for case, high, low, median, below, rounds, confirm in flags:
        flag_of.setdefault(case, []).append("**%s %.2f× %s**" % (high, confirm[0], low))
    for case in measured.cases:
        roof = statistics.median([v for t in targets for v in measured.gbps.get((case, t, "roof"), [])] or [0])
        roof_nt = statistics.median([v for t in targets for v in measured.gbps.get((case, t, "roof_nt"), [])] or [0])
        roof_pattern = [v for t in targets for v in measured.gbps.get((case, t, "roof_pattern"), [])]
        pattern = "–" if not roof_pattern else "%s (%.2f)" % (
            fmt(statistics.median(roof_pattern)), measured.median(case, targets[0], "vs_pattern") or 0)
        cells = []
        for t in targets:
            api, score = measured.median(case, t, "api"), measured.median(case, t, "score")
            cells.append("–" if api is None else "%s (%.2f)" % (fmt(api), score if score else 0))
        best = measured.median(case, targets[0], "score")
        lines.append("| %s | %s | %s | %s | %s | %s | %s |" % (case, fmt(roof or None), fmt(roof_nt or None), pattern,
                                                                " | ".join(cells), fmt(best),
                                                                "; ".join(flag_of.get(case, [""]))))
    return "\n".join(lines)


def measure_again(args, targets, found):
    """Measures the candidate cases again, on their targets only."""
    again = Measurements()
    if not found:
        return again
    cases = sorted({c[0] for c in found} | {contig_name(c[0]) for c in found})
    involved = [t for t in targets if any(t in (c[1], c[2]) for c in found)]
    regex = "(%s)" % "|".join(re.escape(c) for c in cases)
    log("confirming %d candidate(s) on %s: %s" % (len(found), ", ".join(involved), ", ".join(sorted({c[0] for c in
                                                                                                    found}))))
    run_rounds(args, involved, regex, args.confirm_rounds, "confirm", again, torch_target=None)
    return again


def load_rounds(out, tag):
    """The Measurements of the per-process TSVs a run left in `out` (for --summarize-only)."""
    measured, files = Measurements(), []
    for name in os.listdir(out):
        match = re.fullmatch(r"%s-round(\d+)-(.+)\.tsv" % tag, name)
        if match:
            files.append((int(match.group(1)), match.group(2), name))
    for _, target, name in sorted(files):
        with open(os.path.join(out, name)) as f:
            measured.add(list(csv.DictReader(f, delimiter="\t")), target)
    return measured


def confirm(found, again):
    """The candidates whose new rounds still put them below 0.85."""
    confirmed = []
    for case, high, low, median, below, rounds in found:
        slower = again.slower(case, high, low)
        if slower and 2 * slower[2] > slower[3]:  # and most of the new rounds agree
            confirmed.append((case, high, low, median, below, rounds, (slower[0], slower[2], slower[3])))
        else:
            log("not confirmed: %s %s vs %s (sweep %.2f×, again GB/s ratios %s)" % (
                case, high, low, median, ", ".join("%.2f" % r for r in again.ratios(case, high, low, "api"))))
    return confirmed


def write_tsv(path, measured, targets):
    with open(path, "w") as f:
        f.write("case\tlayout\ttarget\tkey\tper_round\n")
        for case in measured.cases:
            for t in targets:
                for key in ("api", "roof", "roof_nt", "roof_pattern", "score", "torch"):
                    values = measured.gbps.get((case, t, key))
                    if values:
                        f.write("%s\t%s\t%s\t%s\t%s\n" % (case, measured.layouts[case], t, key,
                                                          ",".join("%.4f" % v for v in values)))


def write_ratios(path, measured, targets, threads, flags):
    """Per case: the default target's API / roofline and the worst GB/s ratio of a target to a lower one
    (scalar aside), medians over the sweep's rounds; what bench/cpu_record.py keeps per CPU."""
    ranked = [t for t in targets if t != "scalar"]
    flagged = {f[0] for f in flags}
    with open(path, "w") as f:
        f.write("case\tthreads\tdefault_target\tdefault_vs_roofline\tworst_vs_lower\thigh\tlow\tflagged\n")
        for case in measured.cases:
            worst = None
            for i, high in enumerate(ranked):
                for low in ranked[i + 1:]:
                    ratios = measured.ratios(case, high, low, "api")
                    if ratios and (worst is None or statistics.median(ratios) < worst[0]):
                        worst = (statistics.median(ratios), high, low)
            score = measured.median(case, targets[0], "score")
            f.write("%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\n" % (
                case, threads, targets[0], "" if score is None else "%.3f" % score,
                "" if worst is None else "%.3f" % worst[0], worst[1] if worst else "", worst[2] if worst else "",
                "yes" if case in flagged else "no"))


def disturbance(measured, targets):
    """Why the run cannot be trusted, or "": the roofline at 1M elements (in cache) must beat the one at 16M
    (DRAM). When it does not, the machine's other load broke the fork-joins (on 2 CPUs, a thread waiting
    for a descheduled sibling) and every ratio is the scheduler's."""
    reasons = []
    for case in measured.cases:
        op, dtypes, layout, size = split_case(case)
        dram_case = "%s%s/contig/16M" % (op, dtypes)
        if layout != "contig" or size != "1M" or dram_case not in measured.cases:
            continue
        in_cache = [v for t in targets for v in measured.gbps.get((case, t, "roof"), [])]
        dram = [v for t in targets for v in measured.gbps.get((dram_case, t, "roof"), [])]
        if in_cache and dram and statistics.median(in_cache) < statistics.median(dram):
            reasons.append("%s%s roofline %.2f GB/s at 1M, below its %.2f at 16M" % (
                op, dtypes, statistics.median(in_cache), statistics.median(dram)))
    return "; ".join(reasons)


def one_element_calls(measured, target):
    """[(case, ns, [ns of every round])]: the backward op's 1-element full-API calls on `target`, the
    fastest round's time. Why the fastest and not the median: on the shared VMs the call's time is
    bimodal by periods of seconds, 57-68 ns or 92-119 ns, for every case of a process at once, while a
    process that runs the cases for seconds stays in one mode, and the slow periods slow the dynamic
    linker's symbol lookups of the same processes by as much (perf, AMD Zen 5 VM): the machine, not the
    library. Noise only adds time, and a slower library shows in every round, so the fastest of the
    rounds, spread over the sweep's minutes, is what the library costs."""
    calls = []
    for case in measured.cases:
        if not split_case(case)[0] and case.endswith("/contig/1"):
            values = measured.gbps.get((case, target, "api"))
            element_bytes = {"f32": 12, "f16": 6, "bf16": 6}.get(case.split("/")[0], 10)  # mixed: 2 + 4 + 4
            if values:
                calls.append((case, element_bytes / max(values), sorted(element_bytes / v for v in values)))
    return calls


def call_check(calls, reference):
    """Issue 19, item 5: "a 1-element call stays within 1.1x of its recorded value on the same CPU", the
    value being this CPU's first sweep's (cpu_record.py keeps it in the CPU's bench/results file). The
    50-56 ns the issue quotes were measured on another CPU (Xeon model 167, bench/README.md at 38451ef)."""
    if not calls:
        return None
    def rounds(all_ns):
        return "rounds, fastest first: %s" % "/".join("%.0f" % ns for ns in all_ns)

    if not all(case in reference for case, _, _ in calls):
        return "- 1-element call: no reference recorded for this CPU yet (cpu_record.py records this sweep's): %s." % (
            "; ".join("%s %.0f ns (%s)" % (c, ns, rounds(all_ns)) for c, ns, all_ns in calls))
    ratios = [(case, ns, ns / reference[case], all_ns) for case, ns, all_ns in calls]
    worst = max(ratio for _, _, ratio, _ in ratios)
    return ("- 1-element call within 1.1× of this CPU's reference (its bench/results file), the fastest round "
            "against it: %s. %s." % (
                "met" if worst <= 1.1 else "**short** (%.2f× at worst)" % worst,
                "; ".join("%s %.0f ns (%.2f× %.0f; %s)" % (c, ns, r, reference[c], rounds(all_ns))
                          for c, ns, r, all_ns in ratios)))


def weak_paths(measured, target, reference):
    """Issue 19's goals for the paths known to be weak, on the default target: API over the ordinary-store
    roofline (NT roofline in brackets), over PyTorch, and the 1-element call's time against `reference`
    ({case: ns}, this CPU's)."""
    def median_of(case, key):
        values = measured.gbps.get((case, target, key))
        return statistics.median(values) if values else None

    def check(title, cases, key, limit):
        parts, short = [], []
        for case in cases:
            value = median_of(case, key)
            if value is None:
                continue
            extra = " (NT %.2f×)" % median_of(case, "score_nt") if key == "score" and median_of(case, "score_nt") else ""
            if key == "score" and median_of(case, "vs_pattern"):
                extra += "; %.2f× %s, itself %.2f× the roofline" % (
                    median_of(case, "vs_pattern"), PATTERN_ROOFLINES[split_case(case)[2]],
                    value / median_of(case, "vs_pattern"))
            parts.append("%s %.2f×%s" % (case, value, extra))
            if value < limit:
                short.append(case)
        if not parts:
            return "- %s: not measured" % title
        verdict = "met" if not short else "**short** (%d of %d)" % (len(short), len(parts))
        return "- %s: %s. %s." % (title, verdict, "; ".join(parts))

    present = set(measured.cases)
    # Issue 19's goals are the backward op's (the forward pair's cases carry an op prefix).
    backward = [c for c in measured.cases if not split_case(c)[0]]
    # The memory-bound sizes: at 1K a call's fixed cost (~50-100 ns) dominates, and the roofline is L1's.
    sizes = ("1M", "16M")
    lines = [check("f16/bf16 inputs transposed → contiguous ≥ 0.7× roofline",
                   [c for c in ("f16/transposed/16M", "bf16/transposed/16M") if c in present], "score", 0.7),
             check("16-bit step-2 (1M, 16M) ≥ 0.7× roofline",
                   [c for d in ("f16", "bf16") for c in ("%s/step2/%s" % (d, n) for n in sizes) if c in present],
                   "score", 0.7),
             check("f32 step-2 (1M, 16M) ≥ 0.8× roofline",
                   [c for c in ("f32/step2/%s" % n for n in sizes) if c in present], "score", 0.8),
             check("inputs transposed → contiguous ≥ 3× PyTorch",
                   [c for c in backward if "/transposed/" in c], "vs_torch", 3.0)]
    call_line = call_check(one_element_calls(measured, target), reference)
    if call_line:
        lines.append(call_line)
    pattern = ["%s %.2f×" % (c, median_of(c, "vs_pattern")) for c in measured.cases
               if split_case(c)[0] == "fwd/" and median_of(c, "vs_pattern")]
    if pattern:
        lines.append("- the forward op's transposed cases against the transposed-pattern roofline (aclcpu's block "
                     "walk with nothing in it): %s." % "; ".join(pattern))
    return "\n".join(["Issue 19's goals for the weak paths, default target (%s), medians over rounds:" % target]
                      + lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bench", required=True, help="the aclcpu_bench binary")
    parser.add_argument("--out", required=True, help="directory for the per-process TSVs and sweep.md/.tsv")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--confirm-rounds", type=int, default=4)
    parser.add_argument("--min-time", type=float, default=0.05, help="seconds per measurement")
    parser.add_argument("--cases", default="(fwd/|fwd_inplace/)?[^/]+/[^/]+/[^/]+",
                        help="regex on case names (default: all; the forward pair's start with fwd/ or fwd_inplace/)")
    parser.add_argument("--results", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "results"),
                        help="the per-CPU records (bench/results): this CPU's holds its 1-element call reference")
    parser.add_argument("--summarize-only", action="store_true",
                        help="measure nothing: rewrite sweep.md and the TSVs from the processes' TSVs in --out")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    targets = list_targets(args.bench)
    if args.summarize_only:
        info = dict(line.rstrip("\n").split("\t", 1) for line in open(os.path.join(args.out, "sweep-info.txt")))
        args.threads, seconds = int(info["threads"]), float(info["seconds"])
        load_before, load_after = info.get("load_before", "?").split(), info.get("load_after", "?").split()
        measured = load_rounds(args.out, "sweep")
        args.rounds = max((len(v) for v in measured.gbps.values()), default=0)
        found = candidates(measured, targets)
        again = load_rounds(args.out, "confirm")
        args.confirm_rounds = max((len(v) for v in again.gbps.values()), default=0)
        flags = confirm(found, again)
    else:
        load_before = open("/proc/loadavg").read().split()[:3]
        log("targets on this CPU, best first: " + ", ".join(targets))
        started = time.time()
        measured = Measurements()
        # PyTorch does not depend on ACLCPU_MAX_ISA: measured in the default (best) target's processes
        # only (about 8 s a process), for the comparisons with it (transposed: "≥ 3× PyTorch").
        run_rounds(args, targets, "(%s)" % args.cases, args.rounds, "sweep", measured, torch_target=targets[0])
        found = candidates(measured, targets)
        flags = confirm(found, measure_again(args, targets, found))
        seconds = time.time() - started
        load_after = open("/proc/loadavg").read().split()[:3]

    write_tsv(os.path.join(args.out, "sweep.tsv"), measured, targets)
    write_ratios(os.path.join(args.out, "ratios.tsv"), measured, targets, args.threads, flags)
    lines = ["Threads: %d; %d rounds of every target, interleaved; %d confirmation rounds; %.0f s in all. "
             "Load average (1, 5, 15 min) before: %s, after: %s (the machine has %d CPUs; above 1 with one "
             "thread measured, other processes shared them)." % (
                 args.threads, args.rounds, args.confirm_rounds, seconds, " ".join(load_before),
                 " ".join(load_after), os.cpu_count()), "",
        "Cells: aclcpu API GB/s of useful bytes, median over rounds, and in brackets its median ratio to the "
        "ordinary-store roofline of the same process. Strided, broadcast and transposed cases are compared "
        "with the contiguous roofline of the same size. Pattern roofline: the roofline of the case's own "
        "traffic, measured on the case itself, median over targets, and in brackets the default target's API "
        "over it; for transposed cases aclcpu's block walk with nothing in it, for broadcast cases "
        "`c[r][j] = a[r][j] + b[j]` (self read, the grad row from L1, out written row by row, with non-temporal "
        "stores where aclcpu streams).", "",
        sweep_table(measured, targets, flags), ""]
    if flags:
        lines.append("Flagged (a target more than 15 % slower than a lower one, in GB/s and in API / roofline, in "
                     "the sweep and again in the confirmation rounds; GB/s ratios, medians over rounds):")
        for case, high, low, median, below, rounds, (again, again_below, again_rounds) in flags:
            lines.append("- %s: %s %.2f× %s (sweep: %d of %d rounds below 0.85; confirmation: %.2f×, %d of %d)" % (
                case, high, median, low, below, rounds, again, again_below, again_rounds))
    else:
        lines.append("Flagged: nothing (no target more than 15 % slower than a lower one, scalar aside).")
    unconfirmed = [c for c in found if c[:3] not in [f[:3] for f in flags]]
    for case, high, low, median, below, rounds in unconfirmed:
        lines.append("- not confirmed: %s %s %.2f× %s in the sweep (%d of %d rounds below 0.85)" % (
            case, high, median, low, below, rounds))
    scalar_notes = slower_than_scalar(measured, targets)
    if scalar_notes:
        lines.append("")
        lines.append("Slower than scalar (not flagged; scalar is the fallback): " + "; ".join(scalar_notes) + ".")
    torch_lines = []
    for case in measured.cases:
        torch = measured.median(case, targets[0], "torch")
        api = measured.median(case, targets[0], "api")
        if torch and api:
            torch_lines.append("%s %.2f× (%s GB/s vs %s)" % (case, api / torch, fmt(api), fmt(torch)))
    if torch_lines:
        lines += ["", "PyTorch (same processes as %s, the default target): " % targets[0] + "; ".join(torch_lines)
                  + "."]
    calls = one_element_calls(measured, targets[0])
    with open(os.path.join(args.out, "calls.tsv"), "w") as f:
        f.write("case\tns\n" + "".join("%s\t%.1f\n" % (case, ns) for case, ns, _ in calls))
    reference = cpu_record.call_reference(os.path.join(args.results, cpu_record.cpu_key(cpu_record.lscpu()) + ".md"))
    lines += ["", weak_paths(measured, targets[0], reference)]
    disturbed = disturbance(measured, targets)
    if disturbed:
        lines = ["**Disturbed: not to be trusted** (%s: the machine's other load broke the fork-joins; rerun on "
                 "an idle machine)." % disturbed, ""] + lines
    text = "\n".join(lines) + "\n"
    with open(os.path.join(args.out, "sweep.md"), "w") as f:
        f.write(text)
    with open(os.path.join(args.out, "sweep-info.txt"), "w") as f:
        f.write("date\t%s\nthreads\t%d\ntargets\t%s\nseconds\t%.0f\nload_before\t%s\nload_after\t%s\n" % (
            info["date"] if args.summarize_only else datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M UTC"),
            args.threads, ",".join(targets), seconds, " ".join(load_before), " ".join(load_after)))
        f.write("disturbed\t%s\n" % disturbed)
    print(text)
    return 1 if flags else 0


if __name__ == "__main__":
    sys.exit(main())
