#!/usr/bin/python3
"""Writes example_output.txt: what examples/hardsigmoid must print, from PyTorch.

The example computes hardsigmoid(self) for self = {-4, -3, -1.5, 0, 1.5, 3, 4.5, 7}
(float32, shape {4, 2}) out of place, then in place, and prints each result with
printf("%s[%ld] is: %f\\n"). PyTorch (Debian's python3-torch) is the oracle; run
this again only if the example's inputs change.
"""
import pathlib

import torch

self = torch.tensor([-4, -3, -1.5, 0, 1.5, 3, 4.5, 7], dtype=torch.float32).reshape(4, 2)
out = torch.nn.functional.hardsigmoid(self).flatten().tolist()
in_place = torch.nn.functional.hardsigmoid(self.clone(), inplace=True).flatten().tolist()
lines = "".join("result[%d] is: %f\n" % (i, v) for i, v in enumerate(out))
lines += "".join("inplace result[%d] is: %f\n" % (i, v) for i, v in enumerate(in_place))
pathlib.Path(__file__).with_name("example_output.txt").write_text(lines)
