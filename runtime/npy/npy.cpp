#include "runtime/npy/npy.h"

#include "ir/support/input_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <limits>

namespace tujit::runtime {

namespace {

constexpr std::uint8_t kMagic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};

Diagnostic npy_error(std::string_view what, std::string message,
                     std::vector<std::string> notes = {}) {
  return make_error("E-NPY-001", fmt::format("{}: {}", what, message), std::nullopt,
                    std::move(notes));
}

// The header is a Python dict literal; this reads exactly the subset NumPy writes:
// {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), } (either quote style, any spaces).
class HeaderParser {
public:
  explicit HeaderParser(std::string_view s) : s_(s) {}

  struct Fields {
    std::optional<std::string> descr;
    std::optional<bool> fortran_order;
    std::optional<std::vector<std::uint64_t>> shape;
  };

  // Returns an error message, or empty on success.
  std::string parse(Fields& f) {
    skip();
    if (!eat('{')) return "the header does not start with '{'";
    for (;;) {
      skip();
      if (eat('}')) break;
      std::string key;
      if (auto e = string(key); !e.empty()) return e;
      skip();
      if (!eat(':')) return fmt::format("expected ':' after key '{}'", key);
      skip();
      if (key == "descr") {
        std::string v;
        if (auto e = string(v); !e.empty()) return "'descr': " + e;
        f.descr = v;
      } else if (key == "fortran_order") {
        if (word("True"))
          f.fortran_order = true;
        else if (word("False"))
          f.fortran_order = false;
        else
          return "'fortran_order' must be True or False";
      } else if (key == "shape") {
        std::vector<std::uint64_t> shape;
        if (auto e = tuple(shape); !e.empty()) return "'shape': " + e;
        f.shape = shape;
      } else {
        return fmt::format("unexpected key '{}' (expected descr, fortran_order, shape)", key);
      }
      skip();
      if (eat(',')) continue;
      skip();
      if (eat('}')) break;
      return "expected ',' or '}' in the header dict";
    }
    skip();
    if (pos_ != s_.size()) return "unexpected text after the header dict";
    return {};
  }

private:
  void skip() {
    while (pos_ < s_.size() &&
           (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\t' || s_[pos_] == '\r'))
      ++pos_;
  }
  bool eat(char c) {
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool word(std::string_view w) {
    if (s_.substr(pos_, w.size()) != w) return false;
    pos_ += w.size();
    return true;
  }
  std::string string(std::string& out) {
    if (pos_ >= s_.size() || (s_[pos_] != '\'' && s_[pos_] != '"')) return "expected a string";
    char q = s_[pos_++];
    std::size_t end = s_.find(q, pos_);
    if (end == std::string_view::npos) return "unterminated string";
    out = std::string(s_.substr(pos_, end - pos_));
    pos_ = end + 1;
    return {};
  }
  std::string tuple(std::vector<std::uint64_t>& out) {
    if (!eat('(')) return "expected a tuple";
    for (;;) {
      skip();
      if (eat(')')) return {};
      if (pos_ >= s_.size() || s_[pos_] < '0' || s_[pos_] > '9')
        return "expected a non-negative integer";
      std::uint64_t v = 0;
      while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') {
        auto digit = static_cast<std::uint64_t>(s_[pos_++] - '0');
        if (v > (std::numeric_limits<std::uint64_t>::max() - digit) / 10)
          return "a dimension does not fit in 64 bits";
        v = v * 10 + digit;
      }
      if (pos_ < s_.size() && s_[pos_] == 'L') ++pos_; // Python 2 long suffix
      out.push_back(v);
      skip();
      if (eat(',')) continue;
      skip();
      if (eat(')')) return {};
      return "expected ',' or ')' in the shape";
    }
  }

  std::string_view s_;
  std::size_t pos_ = 0;
};

std::optional<NpyDtype> dtype_from_descr(std::string_view d) {
  // One-byte types have no byte order; NumPy writes '|', other writers sometimes '<' or '='.
  if (d == "|i1" || d == "<i1" || d == "=i1") return NpyDtype::I1;
  if (d == "|u1" || d == "<u1" || d == "=u1") return NpyDtype::U1;
  if (d == "<f4") return NpyDtype::F4;
  if (d == "<f8") return NpyDtype::F8;
  if (d == "<i2") return NpyDtype::I2;
  if (d == "<i4") return NpyDtype::I4;
  if (d == "<i8") return NpyDtype::I8;
  if (d == "<u2") return NpyDtype::U2;
  return std::nullopt;
}

} // namespace

std::string_view npy_descr(NpyDtype d) {
  switch (d) {
  case NpyDtype::F4:
    return "<f4";
  case NpyDtype::F8:
    return "<f8";
  case NpyDtype::I1:
    return "|i1";
  case NpyDtype::I2:
    return "<i2";
  case NpyDtype::I4:
    return "<i4";
  case NpyDtype::I8:
    return "<i8";
  case NpyDtype::U1:
    return "|u1";
  case NpyDtype::U2:
    return "<u2";
  }
  return "?";
}

std::uint32_t npy_item_bytes(NpyDtype d) {
  switch (d) {
  case NpyDtype::I1:
  case NpyDtype::U1:
    return 1;
  case NpyDtype::I2:
  case NpyDtype::U2:
    return 2;
  case NpyDtype::F4:
  case NpyDtype::I4:
    return 4;
  case NpyDtype::F8:
  case NpyDtype::I8:
    return 8;
  }
  return 1;
}

std::uint64_t NpyArray::elements() const {
  std::uint64_t n = 1;
  for (auto s : shape) n *= s;
  return n;
}

namespace {

struct Preamble {
  std::uint64_t prefix = 0;     // magic, version and header length: 10 or 12 bytes
  std::uint64_t header_len = 0; // the dict literal and its padding
};

// The magic string, version and header length at the start of `bytes`.
Result<Preamble> parse_preamble(std::span<const std::uint8_t> bytes, std::string_view what,
                                const NpyLimits& limits) {
  if (bytes.size() < 10 || std::memcmp(bytes.data(), kMagic, 6) != 0)
    return npy_error(what, "not a .npy file (the magic string \\x93NUMPY is missing)");
  const std::uint8_t major = bytes[6], minor = bytes[7];
  if (major < 1 || major > 3 || minor != 0)
    return npy_error(what, fmt::format("unsupported .npy format version {}.{}", major, minor),
                     {"supported versions: 1.0, 2.0, 3.0"});
  Preamble p;
  if (major == 1) {
    p.header_len = std::uint64_t{bytes[8]} | (std::uint64_t{bytes[9]} << 8);
    p.prefix = 10;
  } else {
    if (bytes.size() < 12) return npy_error(what, "the file ends inside the header length");
    p.header_len = std::uint64_t{bytes[8]} | (std::uint64_t{bytes[9]} << 8) |
                   (std::uint64_t{bytes[10]} << 16) | (std::uint64_t{bytes[11]} << 24);
    p.prefix = 12;
  }
  if (p.header_len > limits.max_header_bytes)
    return npy_error(what, fmt::format("the header claims {} bytes, more than the limit of {}",
                                       p.header_len, limits.max_header_bytes));
  return p;
}

// The data after the header must be exactly the array's bytes.
std::optional<Diagnostic> check_data_size(const NpyHeader& h, std::uint64_t have,
                                          std::string_view what) {
  const std::uint64_t n = h.elements();
  if (have < h.data_bytes)
    return npy_error(what,
                     fmt::format("truncated data: {} bytes for {} elements of {}, expected {}",
                                 have, n, npy_descr(h.dtype), h.data_bytes));
  if (have > h.data_bytes)
    return npy_error(what, fmt::format("{} bytes of data after the {} elements of the array",
                                       have - h.data_bytes, n));
  return std::nullopt;
}

} // namespace

std::uint64_t NpyHeader::elements() const {
  std::uint64_t n = 1;
  for (auto s : shape) n *= s;
  return n;
}

Result<NpyHeader> parse_npy_header(std::span<const std::uint8_t> bytes, std::string_view what,
                                   const NpyLimits& limits) {
  auto pre = parse_preamble(bytes, what, limits);
  if (!pre) return std::move(pre).take_diagnostics();
  const auto [prefix, header_len] = *pre;
  if (bytes.size() - prefix < header_len)
    return npy_error(what, fmt::format("the file ends inside the header ({} of {} bytes)",
                                       bytes.size() - prefix, header_len));
  std::string_view header(reinterpret_cast<const char*>(bytes.data() + prefix), header_len);
  HeaderParser::Fields f;
  if (auto e = HeaderParser(header).parse(f); !e.empty())
    return npy_error(what, "malformed header: " + e);
  if (!f.descr || !f.fortran_order || !f.shape)
    return npy_error(what, "the header lacks one of 'descr', 'fortran_order', 'shape'");
  auto dt = dtype_from_descr(*f.descr);
  if (!dt) {
    std::string why = (!f.descr->empty() && f.descr->front() == '>')
                          ? "big-endian data is not supported"
                          : "unsupported dtype";
    return npy_error(what, fmt::format("{} '{}'", why, *f.descr),
                     {"supported: <f4 <f8 |i1 <i2 <i4 <i8 |u1 <u2 (little-endian)"});
  }
  if (*f.fortran_order)
    return npy_error(what, "Fortran-order arrays are not supported",
                     {"save the array in C order (numpy.ascontiguousarray)"});
  NpyHeader h;
  h.dtype = *dt;
  h.shape = *f.shape;
  std::uint64_t n = 1;
  for (auto s : h.shape) {
    if (s != 0 && n > std::numeric_limits<std::uint64_t>::max() / s)
      return npy_error(
          what, fmt::format("the shape {} has too many elements to count", shape_text(h.shape)));
    n *= s;
  }
  if (n > limits.max_elements)
    return npy_error(what, fmt::format("the shape {} has {} elements, more than the limit of {}",
                                       shape_text(h.shape), n, limits.max_elements));
  h.data_offset = prefix + header_len;
  h.data_bytes = n * npy_item_bytes(h.dtype);
  return h;
}

Result<NpyArray> parse_npy(std::span<const std::uint8_t> bytes, std::string_view what,
                           const NpyLimits& limits) {
  auto h = parse_npy_header(bytes, what, limits);
  if (!h) return std::move(h).take_diagnostics();
  if (auto d = check_data_size(*h, bytes.size() - h->data_offset, what)) return *d;
  NpyArray a;
  a.dtype = h->dtype;
  a.shape = h->shape;
  const auto* start = bytes.data() + h->data_offset;
  a.data.assign(start, start + h->data_bytes);
  return a;
}

Result<NpyArray> read_npy_file(const std::string& path, const NpyLimits& limits) {
  auto file = InputFile::open(path);
  if (!file) return std::move(file).take_diagnostics();
  // The preamble and the header first: a file that is no valid array of an acceptable size is
  // refused before its data is read.
  std::vector<std::uint8_t> head(std::min<std::uint64_t>(file->size(), 12));
  if (auto d = file->read(head.data(), head.size())) return *d;
  auto pre = parse_preamble(head, path, limits);
  if (!pre) return std::move(pre).take_diagnostics();
  const std::uint64_t header_end = std::min(file->size(), pre->prefix + pre->header_len);
  const std::size_t have = head.size();
  head.resize(std::max<std::uint64_t>(have, header_end));
  if (auto d = file->read(head.data() + have, head.size() - have)) return *d;
  auto h = parse_npy_header(head, path, limits);
  if (!h) return std::move(h).take_diagnostics();
  if (auto d = check_data_size(*h, file->size() - std::min(file->size(), h->data_offset), path))
    return *d;
  NpyArray a;
  a.dtype = h->dtype;
  a.shape = h->shape;
  // Bytes of the preamble read past the header (a tiny file) belong to the data.
  a.data.assign(head.begin() + static_cast<std::ptrdiff_t>(h->data_offset), head.end());
  const std::size_t got = a.data.size();
  a.data.resize(h->data_bytes);
  if (auto d = file->read(a.data.data() + got, a.data.size() - got)) return *d;
  return a;
}

std::vector<std::uint8_t> serialize_npy(const NpyArray& a) {
  std::string shape = "(";
  for (std::size_t k = 0; k < a.shape.size(); ++k)
    shape += fmt::format("{}{}", k ? ", " : "", a.shape[k]);
  if (a.shape.size() == 1) shape += ",";
  shape += ")";
  std::string header = fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': {}, }}",
                                   npy_descr(a.dtype), shape);
  // NumPy aligns the data to 64 bytes: pad with spaces, end with '\n'.
  while ((10 + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  std::vector<std::uint8_t> out(kMagic, kMagic + 6);
  out.push_back(1);
  out.push_back(0);
  out.push_back(static_cast<std::uint8_t>(header.size() & 0xFF));
  out.push_back(static_cast<std::uint8_t>(header.size() >> 8));
  out.insert(out.end(), header.begin(), header.end());
  out.insert(out.end(), a.data.begin(), a.data.end());
  return out;
}

} // namespace tujit::runtime
