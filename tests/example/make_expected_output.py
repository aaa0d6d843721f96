#!/usr/bin/python3
"""Writes expected_output.txt: what CANN's example must print, from PyTorch.

The example computes hardsigmoid_backward(grad=self={0..7} as float32 {4,2}) and
prints each result with printf("result[%ld] is: %f\n"). PyTorch (Debian's
python3-torch) is the oracle; run this again only if the example's inputs change.
"""
import pathlib

import torch

values = torch.arange(8, dtype=torch.float32).reshape(4, 2)
result = torch.ops.aten.hardsigmoid_backward(values, values).flatten().tolist()
lines = "".join("result[%d] is: %f\n" % (i, v) for i, v in enumerate(result))
pathlib.Path(__file__).with_name("expected_output.txt").write_text(lines)
