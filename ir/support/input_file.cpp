#include "ir/support/input_file.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace tujit {

namespace {

Diagnostic io_error(std::string code, std::string message, std::vector<std::string> notes = {}) {
  return make_error(std::move(code), std::move(message), std::nullopt, std::move(notes));
}

Diagnostic unreadable(const std::string& path, int error) {
  return io_error("E-IO-001", fmt::format("cannot read '{}': {}", path, std::strerror(error)));
}

/// E-IO-005 for anything but a regular file.
std::optional<Diagnostic> not_regular(const std::string& path, const struct stat& st) {
  if (S_ISREG(st.st_mode)) return std::nullopt;
  std::string_view kind = "not a regular file";
  std::string note = "give the path of a file";
  if (S_ISDIR(st.st_mode)) {
    kind = "a directory";
    note = "give the path of a file inside it";
  } else if (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)) {
    kind = S_ISFIFO(st.st_mode) ? "a FIFO" : "a socket";
    note = "tujit does not wait on pipes: save the data to a file first";
  } else if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) {
    kind = S_ISCHR(st.st_mode) ? "a character device" : "a block device";
    note = "a device has no end tujit could size: save the data to a file first";
  }
  return io_error("E-IO-005", fmt::format("'{}' is {}; tujit reads regular files only", path, kind),
                  {note});
}

} // namespace

Result<InputFile> InputFile::open(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return unreadable(path, errno);
  if (auto d = not_regular(path, st)) return *d;
  InputFile f;
  f.path_ = path;
  // O_NONBLOCK: should the path have become a FIFO since stat(), open() still returns at once.
  f.fd_ = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (f.fd_ < 0) return unreadable(path, errno);
  if (::fstat(f.fd_, &st) != 0) return unreadable(path, errno);
  if (auto d = not_regular(path, st)) return *d;
  // A regular file never blocks; blocking reads keep the loop in read() simple.
  ::fcntl(f.fd_, F_SETFL, ::fcntl(f.fd_, F_GETFL) & ~O_NONBLOCK);
  f.size_ = static_cast<std::uint64_t>(st.st_size);
  return f;
}

InputFile::InputFile(InputFile&& o) noexcept
    : path_(std::move(o.path_)), fd_(o.fd_), size_(o.size_), position_(o.position_) {
  o.fd_ = -1;
}

InputFile& InputFile::operator=(InputFile&& o) noexcept {
  if (this != &o) {
    if (fd_ >= 0) ::close(fd_);
    path_ = std::move(o.path_);
    fd_ = o.fd_;
    size_ = o.size_;
    position_ = o.position_;
    o.fd_ = -1;
  }
  return *this;
}

InputFile::~InputFile() {
  if (fd_ >= 0) ::close(fd_);
}

std::optional<Diagnostic> InputFile::read(void* dst, std::size_t n) {
  auto* out = static_cast<char*>(dst);
  std::size_t done = 0;
  while (done < n) {
    const ssize_t r = ::read(fd_, out + done, n - done);
    if (r < 0) {
      if (errno == EINTR) continue;
      return unreadable(path_, errno);
    }
    if (r == 0)
      return io_error("E-IO-001",
                      fmt::format("cannot read '{}': it ended after {} bytes, {} were expected "
                                  "(was it changed while tujit read it?)",
                                  path_, position_ + done, position_ + n));
    done += static_cast<std::size_t>(r);
  }
  position_ += n;
  return std::nullopt;
}

Result<std::string> InputFile::read_rest() {
  std::string bytes(size_ > position_ ? size_ - position_ : 0, '\0');
  if (auto d = read(bytes.data(), bytes.size())) return *d;
  char extra = 0;
  ssize_t r = 0;
  do {
    r = ::read(fd_, &extra, 1);
  } while (r < 0 && errno == EINTR);
  if (r > 0)
    return io_error("E-IO-001", fmt::format("cannot read '{}': it grew past its {} bytes while "
                                            "tujit read it",
                                            path_, size_));
  return bytes;
}

std::optional<Diagnostic> check_input_size(const InputFile& file, std::uint64_t max_bytes,
                                           std::string_view kind) {
  if (file.size() <= max_bytes) return std::nullopt;
  Diagnostic d = make_error("E-LIMIT-004",
                            fmt::format("'{}' is {} bytes, more than the {} bytes a {} may have",
                                        file.path(), file.size(), max_bytes, kind),
                            std::nullopt, {"is this the right file?"});
  return d;
}

Result<std::string> read_input_file(const std::string& path, std::uint64_t max_bytes,
                                    std::string_view kind) {
  auto f = InputFile::open(path);
  if (!f) return std::move(f).take_diagnostics();
  if (auto d = check_input_size(*f, max_bytes, kind)) return *d;
  return f->read_rest();
}

} // namespace tujit
