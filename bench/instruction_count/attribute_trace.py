#!/usr/bin/env python3
"""Attributes a single_step_counter trace (ACLCPU_COUNT_TRACE) to functions.

Usage: attribute_trace.py <trace file> [top N]
Prints instructions per function (library:symbol), most first, resolved with
addr2line from the trace's memory map (<trace file>.maps).
"""
import collections
import subprocess
import sys


def main():
    path = sys.argv[1]
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 30
    maps = []
    with open(path + ".maps") as f:
        for line in f:
            fields = line.split()
            if len(fields) < 6 or not fields[5].startswith("/"):
                continue
            start, end = (int(x, 16) for x in fields[0].split("-"))
            maps.append((start, end, int(fields[2], 16), fields[5]))
    counts = collections.Counter(int(line, 16) for line in open(path))
    by_object = collections.defaultdict(dict)
    for address, n in counts.items():
        for start, end, offset, name in maps:
            if start <= address < end:
                by_object[name][address - start + offset] = n
                break
    per_function = collections.Counter()
    for name, offsets in by_object.items():
        keys = sorted(offsets)
        out = subprocess.run(["addr2line", "-f", "-C", "-e", name] + [hex(k) for k in keys],
                             capture_output=True, text=True).stdout.splitlines()
        for i, key in enumerate(keys):
            function = out[2 * i] if 2 * i < len(out) else "??"
            per_function[name.rsplit("/", 1)[-1] + ":" + function] += offsets[key]
    total = sum(per_function.values())
    for function, n in per_function.most_common(top):
        print(f"{n:8d} {100.0 * n / total:5.1f}%  {function}")
    print(f"{total:8d} total")


if __name__ == "__main__":
    main()
