"""Writes the seed corpora of the fuzz targets that specs/ cannot serve directly, under OUT_DIR
(`make fuzz` passes build-fuzz/seeds; nothing is committed):

- OUT_DIR/mapping/: one file per `m![…]` body of specs/**/*.rs, in fuzz_mapping's input format:
  the file's `axes![…]` list, a newline, the body. Aliases (`{ Name }`) are left as written (the
  fuzz target has no alias table: those seeds exercise the escape diagnostics).
- OUT_DIR/npy/: small .npy images (versions 1.0 and 2.0, every dtype the reader accepts), each
  prefixed with the byte fuzz_npy reads as the parameter-type selector.
Run: python3 tests/fuzz/make_seeds.py OUT_DIR
"""
import glob, os, re, struct, sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def bodies(text):
    """Yields the text between `m![` and its matching `]`."""
    for m in re.finditer(r"m!\[", text):
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {"[": 1, "]": -1}.get(text[i], 0)
            i += 1
        if depth == 0:
            yield text[m.end():i - 1].strip()


def mapping_seeds(base):
    out = os.path.join(base, "mapping")
    os.makedirs(out, exist_ok=True)
    seen = set()
    for path in sorted(glob.glob(os.path.join(ROOT, "specs", "**", "*.rs"), recursive=True)):
        text = open(path, encoding="utf-8", errors="replace").read()
        axes = re.search(r"axes!\[(.*?)\]", text, re.S)
        if not axes:
            continue
        for body in bodies(text):
            seed = " ".join(axes.group(1).split()) + "\n" + body
            if seed not in seen:
                seen.add(seed)
    for n, seed in enumerate(sorted(seen)):
        with open(os.path.join(out, f"m{n:03d}.txt"), "w") as f:
            f.write(seed)
    return len(seen)


def npy(descr, shape, data, version=1):
    shape_text = "(" + "".join(f"{d}, " for d in shape).rstrip(" ") + ")"
    if len(shape) > 1:
        shape_text = "(" + ", ".join(str(d) for d in shape) + ")"
    header = f"{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape_text}, }}"
    pre = 10 if version == 1 else 12
    pad = (64 - (pre + len(header) + 1) % 64) % 64
    header = header + " " * pad + "\n"
    size = struct.pack("<H", len(header)) if version == 1 else struct.pack("<I", len(header))
    return b"\x93NUMPY" + bytes([version, 0]) + size + header.encode("latin1") + data


def npy_seeds(base):
    out = os.path.join(base, "npy")
    os.makedirs(out, exist_ok=True)
    # (selector byte = index into kAllScalarTypes: i4 i5 i8 i9 i16 i32 u8 bf16 f8e4m3 f8e5m2 f32 f4e2m1)
    cases = [
        (10, "<f4", (2, 3), struct.pack("<6f", 0.5, -1.0, 2.0, 0.0, -0.25, 3.0)),
        (7, "<f8", (4,), struct.pack("<4d", 1.0, -2.5, 1e-3, 7.0)),
        (8, "<f4", (2, 2), struct.pack("<4f", 0.5, 1.0, -448.0, 0.0)),
        (9, "<f4", (3,), struct.pack("<3f", 0.5, -1.0, 57344.0)),
        (11, "<f4", (2,), struct.pack("<2f", 0.5, -6.0)),
        (2, "|i1", (2, 2), struct.pack("<4b", 1, -2, 127, -128)),
        (0, "|i1", (4,), struct.pack("<4b", -8, 7, 0, 1)),
        (1, "|i1", (2,), struct.pack("<2b", -16, 15)),
        (3, "<i2", (2,), struct.pack("<2h", -256, 255)),
        (4, "<i2", (1, 3), struct.pack("<3h", -32768, 0, 32767)),
        (5, "<i4", (2,), struct.pack("<2i", -5, 1 << 20)),
        (5, "<i8", (2,), struct.pack("<2q", -5, 6)),
        (6, "|u1", (3,), bytes([0, 128, 255])),
        (7 + 12, "<u2", (2,), struct.pack("<2H", 0x3F80, 0xC000)),
        (10, "<f4", (), struct.pack("<f", 1.5)),
    ]
    for n, (sel, descr, shape, data) in enumerate(cases):
        for version in (1, 2):
            with open(os.path.join(out, f"n{n:02d}_v{version}.bin"), "wb") as f:
                f.write(bytes([sel]) + npy(descr, shape, data, version))
    return len(cases) * 2


if __name__ == "__main__":
    base = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build-fuzz", "seeds")
    print(f"make_seeds: {mapping_seeds(base)} mapping seeds, {npy_seeds(base)} npy seeds in {base}")
