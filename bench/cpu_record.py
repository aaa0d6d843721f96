#!/usr/bin/env python3
"""Records an ISA sweep (bench/isa_sweep.py's output directory) in bench/results/<cpu>.md, the file of
this CPU model: keyed by vendor, family, model and stepping, because under a hypervisor the model name is
often just "Intel Xeon Processor" or "AMD EPYC". The file's head (what the CPU is) is rewritten from this
machine; its sweep section for the same thread count is replaced, every other section kept; the rows of
its Ratios table that came from a sweep at this thread count are replaced, the others (hand figures) kept;
its "1-element call reference" section is written by the CPU's first sweep and never rewritten.
make_readme.py reads the Ratios tables of every file; isa_sweep.py reads this CPU's call reference."""
import argparse
import csv
import datetime
import os
import subprocess

# The ISA extensions aclcpu's targets and kernels depend on (x86; aarch64 shows asimd/sve).
FLAGS_THAT_MATTER = ["ssse3", "sse4_1", "sse4_2", "avx", "f16c", "fma", "avx2", "avx512f", "avx512bw", "avx512vl",
                     "avx512dq", "avx512_vnni", "avx512vbmi", "avx512_vbmi2", "avx512_bitalg", "avx512_bf16",
                     "avx512_fp16", "amx_tile", "asimd", "fphp", "asimdhp", "sve", "sve2"]
VENDORS = {"GenuineIntel": "intel", "AuthenticAMD": "amd"}
RATIOS_HEAD = ["case", "T", "target", "target / roofline", "worst target vs a lower one", "targets", "source"]


# Microarchitecture by (vendor, family, model), for the file's title: the model name under a hypervisor
# rarely says. Only what the project has met or is likely to; a hypervisor may report a synthetic model.
MICROARCHITECTURES = {("AuthenticAMD", 25, m): "Zen 4" for m in list(range(0x10, 0x20)) + list(range(0x60, 0x80)) +
                      list(range(0xA0, 0xB0))}
MICROARCHITECTURES.update({("AuthenticAMD", 25, m): "Zen 3" for m in list(range(0x00, 0x10)) + list(range(0x20, 0x60))})
MICROARCHITECTURES.update({("AuthenticAMD", 26, m): "Zen 5" for m in range(0x00, 0x80)})
MICROARCHITECTURES.update({("GenuineIntel", 6, 85): "Skylake-SP / Cascade Lake / Cooper Lake",
                           ("GenuineIntel", 6, 106): "Ice Lake-SP", ("GenuineIntel", 6, 108): "Ice Lake-D",
                           ("GenuineIntel", 6, 143): "Sapphire Rapids", ("GenuineIntel", 6, 207): "Emerald Rapids",
                           ("GenuineIntel", 6, 173): "Granite Rapids"})


def microarchitecture(cpu):
    try:
        key = (cpu.get("Vendor ID"), int(cpu.get("CPU family", "-1")), int(cpu.get("Model", "-1")))
    except ValueError:
        return None
    return MICROARCHITECTURES.get(key)


def run(command):
    return subprocess.run(command, shell=True, capture_output=True, text=True, check=False).stdout.strip()


def lscpu():
    fields = {}
    for line in run("lscpu").splitlines():
        if ":" in line:
            key, value = line.split(":", 1)
            fields[key.strip()] = value.strip()
    return fields


def cpu_key(cpu):
    vendor = VENDORS.get(cpu.get("Vendor ID", ""), cpu.get("Vendor ID", "unknown").lower())
    return "%s-family%s-model%s-stepping%s" % (vendor, cpu.get("CPU family", "?"), cpu.get("Model", "?"),
                                               cpu.get("Stepping", "?"))


def hypervisor(cpu):
    """lscpu's vendor, else the kernel's boot message (lscpu names KVM, Xen, VMware, Microsoft; not e.g.
    PVM), else whether the CPU flags say there is one."""
    if cpu.get("Hypervisor vendor"):
        return cpu["Hypervisor vendor"]
    for line in run("dmesg 2>/dev/null | grep -m1 'Hypervisor detected'").splitlines():
        return line.split("Hypervisor detected:", 1)[-1].strip() + " (kernel boot message)"
    return "yes (vendor not reported)" if "hypervisor" in cpu.get("Flags", "").split() else "none"


def head(cpu, targets):
    flags = set(cpu.get("Flags", "").split())
    present = [f for f in FLAGS_THAT_MATTER if f in flags]
    absent = [f for f in FLAGS_THAT_MATTER if f not in flags and not f.startswith(("asimd", "fphp", "sve"))]
    gds = run("cat /sys/devices/system/cpu/vulnerabilities/gather_data_sampling") or "not reported"
    return "\n".join([
        "# %s%s, family %s, model %s, stepping %s" % (
            cpu.get("Model name", "?"), " (%s by family and model)" % microarchitecture(cpu) if microarchitecture(cpu)
            else "", cpu.get("CPU family", "?"), cpu.get("Model", "?"), cpu.get("Stepping", "?")),
        "",
        "Written by `bench/cpu_record.py` (`bench/run_bench.sh --isa-sweep`) from the machine itself.",
        "",
        "- Vendor: %s; model name as lscpu reports it: \"%s\"" % (cpu.get("Vendor ID", "?"), cpu.get("Model name", "?")),
        "- ISA flags that matter: %s; absent: %s" % (" ".join(present) or "none", " ".join(absent) or "none"),
        "- gather_data_sampling: %s" % gds,
        "- Hypervisor: %s" % hypervisor(cpu),
        "- CPUs: %s (%s thread(s) per core)%s" % (
            cpu.get("CPU(s)", "?"), cpu.get("Thread(s) per core", "?"),
            "".join(", %s %s" % (c, cpu[c]) for c in ("L1d cache", "L2 cache", "L3 cache") if c in cpu)),
        "- aclcpu's SIMD targets here, best first: %s" % ", ".join(targets),
        "",
    ])


def split_sections(text):
    """[(heading or '' for the head, body)] by '## ' headings."""
    sections, heading, body = [], "", []
    for line in text.splitlines():
        if line.startswith("## "):
            sections.append((heading, "\n".join(body)))
            heading, body = line[3:].strip(), []
        else:
            body.append(line)
    sections.append((heading, "\n".join(body)))
    return sections


CALL_REFERENCE_HEADING = "1-element call reference"
CALL_REFERENCE_HEAD = ["case", "ns", "recorded"]


def call_reference(path):
    """{case: ns} from the "1-element call reference" section of a CPU's file (empty if it has none): what
    issue 19's "a 1-element call stays within 1.1x of its recorded value on the same CPU" compares with."""
    if not os.path.exists(path):
        return {}
    for heading, body in split_sections(open(path).read()):
        if heading == CALL_REFERENCE_HEADING:
            return {row[0]: float(row[1]) for row in table_rows(body, CALL_REFERENCE_HEAD)}
    return {}


def call_reference_section(calls_tsv, source):
    """The section recording this sweep's 1-element calls as the CPU's reference (its first sweep)."""
    with open(calls_tsv) as f:
        rows = [[row["case"], "%.0f" % float(row["ns"]), source] for row in csv.DictReader(f, delimiter="\t")]
    lines = ["", "The first sweep's 1-element calls on this CPU (default target, fastest round), kept by "
             "later sweeps: `bench/isa_sweep.py` checks that each stays within 1.1x of it (issue 19: \"a "
             "1-element call stays within 1.1x of its recorded value on the same CPU\").", "",
             "| " + " | ".join(CALL_REFERENCE_HEAD) + " |", "|" + "---|" * len(CALL_REFERENCE_HEAD)]
    return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in rows]) + "\n"


def table_rows(body, head=None):
    rows = []
    for line in body.splitlines():
        if line.startswith("|") and not line.startswith("|---"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if cells != (head or RATIOS_HEAD):
                rows.append(cells)
    return rows


def format_table(rows):
    lines = ["| " + " | ".join(RATIOS_HEAD) + " |", "|" + "---|" * len(RATIOS_HEAD)]
    return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in rows])


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sweep", required=True, help="isa_sweep.py's --out directory")
    parser.add_argument("--repo", required=True)
    parser.add_argument("--results", required=True, help="bench/results")
    parser.add_argument("--record-disturbed", action="store_true",
                        help="record a sweep isa_sweep.py found disturbed by the machine's other load")
    args = parser.parse_args()

    info = dict(line.rstrip("\n").split("\t", 1) for line in open(os.path.join(args.sweep, "sweep-info.txt")))
    if info.get("disturbed") and not args.record_disturbed:
        print("cpu record: not recording a disturbed sweep (%s); see %s/sweep.md" % (info["disturbed"], args.sweep))
        return
    threads = info["threads"]
    commit = run("git -C '%s' rev-parse --short HEAD" % args.repo)
    if run("git -C '%s' status --porcelain -- src include" % args.repo):
        commit += " plus uncommitted changes in src/ or include/"
    cpu = lscpu()
    path = os.path.join(args.results, cpu_key(cpu) + ".md")
    old = open(path).read() if os.path.exists(path) else ""
    sections = split_sections(old)[1:] if old else []

    sweep_heading = "Sweep, %s thread(s)" % threads
    sweep_body = "\n".join([
        "", "%s, aclcpu commit %s, `bench/run_bench.sh --isa-sweep%s`." % (
            info["date"], commit, "" if threads == "1" else " --threads=%s" % threads), "",
        open(os.path.join(args.sweep, "sweep.md")).read().rstrip(), ""])
    source = "sweep %s, %s" % (info["date"].split()[0], commit.split()[0])
    new_rows = []
    with open(os.path.join(args.sweep, "ratios.tsv")) as f:
        for row in csv.DictReader(f, delimiter="\t"):
            new_rows.append([row["case"], row["threads"], row["default_target"],
                             row["default_vs_roofline"] and "%.2f" % float(row["default_vs_roofline"]) or "–",
                             row["worst_vs_lower"] and "%.2f" % float(row["worst_vs_lower"]) or "–",
                             "%s vs %s" % (row["high"], row["low"]) if row["high"] else "–",
                             source + (", flagged" if row["flagged"] == "yes" else "")])

    kept, ratio_rows = [], []
    calls_tsv = os.path.join(args.sweep, "calls.tsv")
    if CALL_REFERENCE_HEADING not in [h for h, _ in sections] and os.path.exists(calls_tsv):
        kept.append((CALL_REFERENCE_HEADING, call_reference_section(calls_tsv, source + ", %s thread(s)" % threads)))
    for heading, body in sections:
        if heading == sweep_heading:
            continue
        if heading.startswith("Ratios"):
            ratio_rows = [r for r in table_rows(body) if not (r[6].startswith("sweep") and r[1] == threads)]
            continue
        kept.append((heading, body))
    kept.append((sweep_heading, sweep_body))
    ratios_body = "\n".join([
        "", "Read by `bench/make_readme.py`. \"target / roofline\": the default target's aclcpu API GB/s over "
        "the ordinary-store roofline of the same process; \"worst target vs a lower one\": the lowest ratio of a "
        "target's speed to a lower target's (scalar aside), medians over rounds.", "",
        format_table(new_rows + ratio_rows), ""])
    kept.append(("Ratios", ratios_body))
    targets = info["targets"].split(",")
    text = head(cpu, targets) + "".join("\n## %s\n%s" % (h, b.rstrip("\n") + "\n") for h, b in kept)
    os.makedirs(args.results, exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    print("cpu record: wrote %s (%s)" % (path, datetime.date.today()))


if __name__ == "__main__":
    main()
