// The .npy container (NumPy format versions 1.0, 2.0, 3.0): magic "\x93NUMPY", version, header
// length (u16 for 1.0, u32 for 2.0 / 3.0), a Python dict literal {'descr', 'fortran_order',
// 'shape'} padded with spaces and '\n', then the raw data. tujit reads and writes little-endian,
// C-order arrays of the dtypes below (docs/cli.md §6); anything else is a diagnostic, never a
// crash.
#pragma once

#include "ir/support/diagnostic.h"
#include "runtime/tensor/logical_tensor.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tujit::runtime {

enum class NpyDtype : std::uint8_t { F4, F8, I1, I2, I4, I8, U1, U2 };

/// "<f4", "<f8", "|i1", "<i2", "<i4", "<i8", "|u1", "<u2" (as NumPy writes them).
std::string_view npy_descr(NpyDtype d);
std::uint32_t npy_item_bytes(NpyDtype d);

struct NpyArray {
  NpyDtype dtype = NpyDtype::F4;
  std::vector<std::uint64_t> shape; // empty = a 0-d array (one element)
  std::vector<std::uint8_t> data;   // little-endian, C order, exactly elements × item bytes
  std::uint64_t elements() const;
};

struct NpyLimits {
  std::uint64_t max_elements = kDefaultMaxElements;
  std::uint32_t max_header_bytes = 1u << 20;
};

/// The preamble and header of a .npy file: what the data after them must be.
struct NpyHeader {
  NpyDtype dtype = NpyDtype::F4;
  std::vector<std::uint64_t> shape;
  std::uint64_t data_offset = 0; // bytes before the data
  std::uint64_t data_bytes = 0;  // elements × item bytes
  std::uint64_t elements() const;
};

/// Parses the preamble and header at the start of `bytes` (the data may follow or not).
/// Diagnostics (code E-NPY-001…): bad magic or version, a malformed or oversized header, an
/// unsupported / big-endian dtype, Fortran order, a shape whose element count overflows or
/// exceeds the limit. `what` names the file in messages.
Result<NpyHeader> parse_npy_header(std::span<const std::uint8_t> bytes, std::string_view what,
                                   const NpyLimits& limits = {});
/// Parses a whole .npy image: the header, then exactly its data (truncated or trailing data is
/// E-NPY-001).
Result<NpyArray> parse_npy(std::span<const std::uint8_t> bytes, std::string_view what,
                           const NpyLimits& limits = {});
/// Reads a file through ir/support/input_file.h (not a regular file: E-IO-005; unreadable:
/// E-IO-001): the header is read and validated, and the file's size checked against it, before
/// any data is read.
Result<NpyArray> read_npy_file(const std::string& path, const NpyLimits& limits = {});

/// The .npy 1.0 image of an array (header padded so the data starts at a multiple of 64).
/// runtime/io/output_file.h writes it.
std::vector<std::uint8_t> serialize_npy(const NpyArray& a);

} // namespace tujit::runtime
