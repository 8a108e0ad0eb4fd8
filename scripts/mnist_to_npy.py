#!/usr/bin/env python3
"""Converts the reference's MNIST model and images into the .npy inputs `tujit run` reads.

Source: furiosa-opt-examples/data/mnist/mnist.safetensors in github.com/furiosa-ai/furiosa-opt
(the file its tests/mnist_tests.rs loads). Usage:

    scripts/mnist_to_npy.py PATH/TO/mnist.safetensors OUT_DIR

writes one OUT_DIR/NAME.npy per tensor the reference's `forward` test reads (hw.fc1.weight,
fc1.bias, hw.fc2.weight, hw.fc2.bias, hw.image_0 … hw.image_9, label_0 … label_9) and
OUT_DIR/SOURCE.txt (the input's SHA-256 and each tensor's shape). bf16 tensors become their
16-bit codes as `<u2` (docs/cli.md §6.1: how `--input` reads bf16), i32 labels `<i4`: bits are
copied, never converted. Only the Python standard library is used.

Axis order: an `.npy` input holds the logical tensor with its axes in the kernel's `axes!`
declaration order (docs/cli.md §6.1). mod.rs declares `axes![X = 800, H = 256, C = 16, …]`, and
`forward` takes `fc1_weight: m![H, X]` and `fc2_weight: m![C, H]`, which the safetensors stores
row-major as [H, X] and [C, H] (tests/mnist_tests.rs reads them as `HostTensor<bf16, m![H, X]>`
and `m![C, H]`). Those two are written transposed, as [X, H] = [800, 256] and [H, C] = [256, 16],
so each element keeps its (X, H) / (H, C) coordinates; SOURCE.txt lists the written shapes.

The safetensors layout: an 8-byte little-endian header length, a JSON header naming each tensor's
dtype, shape and [begin, end) byte offsets into the data that follows, then the data
(little-endian).
"""
import hashlib
import json
import pathlib
import struct
import sys

NPY_DTYPE = {"BF16": "<u2", "I32": "<i4", "F32": "<f4"}
ITEM_BYTES = {"BF16": 2, "I32": 4, "F32": 4}


def wanted(name):
    return (
        name in ("hw.fc1.weight", "fc1.bias", "hw.fc2.weight", "hw.fc2.bias")
        or name.startswith("hw.image_")
        or name.startswith("label_")
    )


# The tensors whose two axes are stored in the other order than the declaration's (see above).
TRANSPOSED = ("hw.fc1.weight", "hw.fc2.weight")


def transposed(shape, item, data):
    """A row-major [rows, cols] array of `item`-byte elements as [cols, rows]."""
    rows, cols = shape
    out = bytearray(len(data))
    for r in range(rows):
        for c in range(cols):
            src = (r * cols + c) * item
            dst = (c * rows + r) * item
            out[dst : dst + item] = data[src : src + item]
    return [cols, rows], bytes(out)


def npy_bytes(dtype, shape, data):
    """NPY format 1.0: magic, version, header length, a Python-literal dict padded to 64 bytes."""
    dims = ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "")
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (dtype, dims)
    pad = 64 - (10 + len(header) + 1) % 64
    header = header + " " * pad + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1") + data


def main(argv):
    if len(argv) != 3:
        sys.stderr.write("usage: mnist_to_npy.py MNIST.safetensors OUT_DIR\n")
        return 2
    blob = pathlib.Path(argv[1]).read_bytes()
    (length,) = struct.unpack("<Q", blob[:8])
    header = json.loads(blob[8 : 8 + length])
    data = blob[8 + length :]
    out = pathlib.Path(argv[2])
    out.mkdir(parents=True, exist_ok=True)
    lines = ["source: furiosa-opt-examples/data/mnist/mnist.safetensors (github.com/furiosa-ai/furiosa-opt)",
             "sha256: " + hashlib.sha256(blob).hexdigest(),
             "converted by scripts/mnist_to_npy.py"]
    for name in sorted(header):
        if name == "__metadata__" or not wanted(name):
            continue
        t = header[name]
        begin, end = t["data_offsets"]
        count = 1
        for d in t["shape"]:
            count *= d
        if t["dtype"] not in NPY_DTYPE or end - begin != count * ITEM_BYTES[t["dtype"]]:
            sys.stderr.write("mnist_to_npy.py: %s: unexpected dtype %s or size\n" % (name, t["dtype"]))
            return 1
        shape, tensor = t["shape"], data[begin:end]
        if name in TRANSPOSED:
            shape, tensor = transposed(shape, ITEM_BYTES[t["dtype"]], tensor)
        (out / (name + ".npy")).write_bytes(npy_bytes(NPY_DTYPE[t["dtype"]], shape, tensor))
        lines.append("%s %s %s" % (name, t["dtype"], shape))
    (out / "SOURCE.txt").write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
