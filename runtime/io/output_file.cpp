#include "runtime/io/output_file.h"

#include "runtime/io/interrupt.h"

#include <fmt/format.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <mutex>

#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

namespace tujit::runtime::io {

namespace {

namespace fs = std::filesystem;

std::mutex g_fault_mu;
std::optional<WriteFault> g_fault;

/// The injected error of `step`, 0 when none.
int injected(WriteStep step) {
  std::lock_guard lock(g_fault_mu);
  return g_fault && g_fault->step == step ? g_fault->error : 0;
}

std::string directory_of(const std::string& path) {
  const fs::path dir = fs::path(path).parent_path();
  return dir.empty() ? std::string(".") : dir.string();
}

/// What kind of non-regular file `st` describes, for E-IO-003.
std::string_view kind_of(const struct stat& st) {
  if (S_ISDIR(st.st_mode)) return "a directory";
  if (S_ISLNK(st.st_mode)) return "a symbolic link";
  if (S_ISCHR(st.st_mode)) return "a character device";
  if (S_ISBLK(st.st_mode)) return "a block device";
  if (S_ISFIFO(st.st_mode)) return "a FIFO";
  if (S_ISSOCK(st.st_mode)) return "a socket";
  return "not a regular file";
}

/// The system's reason for `error`, in words that name what to fix.
std::string cause_of(int error, const std::string& dir) {
  switch (error) {
  case ENOSPC:
    return "no space left on the device";
  case EDQUOT:
    return "the disk quota is exceeded";
  case EFBIG:
    return "the file is larger than the file system or the file-size limit (ulimit -f) allows";
  case ENOENT:
    return fmt::format("the directory '{}' does not exist", dir);
  case ENOTDIR:
    return fmt::format("'{}' is not a directory", dir);
  case EACCES:
  case EPERM:
    return fmt::format("no permission to create files in '{}'", dir);
  case EROFS:
    return fmt::format("'{}' is on a read-only file system", dir);
  case EIO:
    return "an input/output error of the device";
  default:
    return std::strerror(error);
  }
}

Diagnostic io_error(std::string code, std::string message, std::vector<std::string> notes) {
  return make_error(std::move(code), std::move(message), std::nullopt, std::move(notes));
}

Diagnostic exists_error(const std::string& path) {
  return io_error("E-IO-002", fmt::format("'{}' exists already; not overwritten", path),
                  {"pass --force to replace it, or choose another path"});
}

Diagnostic not_regular_error(const std::string& path, const struct stat& st) {
  return io_error(
      "E-IO-003",
      fmt::format("'{}' is {}; tujit only ever replaces regular files", path, kind_of(st)),
      {"--force does not change this: choose the path of a regular file"});
}

/// Eight random characters of [a-z0-9] for a temporary's name.
std::string random_suffix() {
  unsigned char raw[8] = {};
  if (::getrandom(raw, sizeof raw, GRND_NONBLOCK) != static_cast<ssize_t>(sizeof raw)) {
    // No entropy yet (early boot): the pid, a counter and the clock still differ per attempt.
    static std::atomic<std::uint64_t> counter{0};
    std::uint64_t x =
        static_cast<std::uint64_t>(::getpid()) * 0x9E3779B97F4A7C15ull ^
        counter++ * 0xBF58476D1CE4E5B9ull ^
        static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
    for (auto& b : raw) b = static_cast<unsigned char>(x >>= 7);
  }
  constexpr char kAlphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  std::string s;
  for (unsigned char b : raw) s += kAlphabet[b % 36];
  return s;
}

} // namespace

void set_write_fault(std::optional<WriteFault> fault) {
  std::lock_guard lock(g_fault_mu);
  g_fault = fault;
}

std::optional<Diagnostic> check_output_path(const std::string& path, bool overwrite) {
  if (path.empty()) return io_error("E-IO-004", "an output path is empty", {});
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0) {
    if (!S_ISREG(st.st_mode)) return not_regular_error(path, st);
    if (!overwrite) return exists_error(path);
    return std::nullopt;
  }
  const int lstat_error = errno;
  const std::string dir = directory_of(path);
  if (lstat_error != ENOENT)
    return io_error("E-IO-004",
                    fmt::format("cannot write '{}': {}", path, cause_of(lstat_error, dir)), {});
  struct stat ds {};
  if (::stat(dir.c_str(), &ds) != 0)
    return io_error("E-IO-004", fmt::format("cannot write '{}': {}", path, cause_of(errno, dir)),
                    {});
  if (!S_ISDIR(ds.st_mode))
    return io_error("E-IO-004", fmt::format("cannot write '{}': {}", path, cause_of(ENOTDIR, dir)),
                    {});
  if (fs::path(path).filename().empty())
    return io_error("E-IO-004", fmt::format("'{}' does not name a file", path), {});
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    return io_error("E-IO-004", fmt::format("cannot write '{}': {}", path, cause_of(errno, dir)),
                    {});
  return std::nullopt;
}

Result<OutputFile> OutputFile::create(const std::string& path, bool overwrite, unsigned mode) {
  if (auto d = check_output_path(path, overwrite)) return *d;
  OutputFile f;
  f.path_ = path;
  f.overwrite_ = overwrite;
  const std::string dir = directory_of(path);
  // Leave room for the suffix within NAME_MAX (255).
  const std::string base = fs::path(path).filename().string().substr(0, 200);
  for (int attempt = 0; attempt < 100; ++attempt) {
    f.temp_ = (fs::path(dir) / fmt::format(".{}.tujit-{}", base, random_suffix())).string();
    if (const int e = injected(WriteStep::Create)) {
      errno = e;
      break;
    }
    f.fd_ = ::open(f.temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                   static_cast<mode_t>(mode));
    if (f.fd_ >= 0 || errno != EEXIST) break;
  }
  if (f.fd_ < 0) {
    const int e = errno;
    f.temp_.clear(); // nothing of ours to remove
    return f.fail(fmt::format("creating a temporary file in '{}'", dir), e);
  }
  f.slot_ = register_temporary(f.temp_.c_str());
  return f;
}

OutputFile::OutputFile(OutputFile&& o) noexcept
    : path_(std::move(o.path_)), temp_(std::move(o.temp_)), fd_(o.fd_), slot_(o.slot_),
      overwrite_(o.overwrite_), written_(o.written_) {
  o.fd_ = -1;
  o.slot_ = -1;
  o.temp_.clear();
}

OutputFile& OutputFile::operator=(OutputFile&& o) noexcept {
  if (this != &o) {
    discard();
    path_ = std::move(o.path_);
    temp_ = std::move(o.temp_);
    fd_ = o.fd_;
    slot_ = o.slot_;
    overwrite_ = o.overwrite_;
    written_ = o.written_;
    o.fd_ = -1;
    o.slot_ = -1;
    o.temp_.clear();
  }
  return *this;
}

OutputFile::~OutputFile() {
  discard();
}

void OutputFile::discard() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (!temp_.empty()) ::unlink(temp_.c_str());
  temp_.clear();
  release_temporary(slot_);
  slot_ = -1;
}

Diagnostic OutputFile::fail(std::string_view step, int error) {
  const bool had_temporary = !temp_.empty();
  discard();
  std::vector<std::string> notes = {fmt::format("while {}", step)};
  notes.push_back(had_temporary
                      ? fmt::format("the temporary file was removed; '{}' is as it was", path_)
                      : fmt::format("'{}' is as it was", path_));
  return io_error("E-IO-004",
                  fmt::format("cannot write '{}': {}", path_, cause_of(error, directory_of(path_))),
                  std::move(notes));
}

std::optional<Diagnostic> OutputFile::write(std::span<const std::uint8_t> bytes) {
  if (fd_ < 0) return io_error("E-IO-004", fmt::format("'{}' is closed already", path_), {});
  std::size_t done = 0;
  while (done < bytes.size()) {
    std::size_t n = bytes.size() - done;
    int fault = 0;
    {
      std::lock_guard lock(g_fault_mu);
      if (g_fault && g_fault->step == WriteStep::Write) {
        if (written_ >= g_fault->after_bytes)
          fault = g_fault->error;
        else
          n = std::min<std::uint64_t>(n, g_fault->after_bytes - written_);
      }
    }
    if (fault != 0) return fail(fmt::format("writing '{}'", temp_), fault);
    const ssize_t w = ::write(fd_, bytes.data() + done, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return fail(fmt::format("writing '{}'", temp_), errno);
    }
    // write() returning 0 for a non-empty buffer means the device takes nothing more.
    if (w == 0) return fail(fmt::format("writing '{}'", temp_), ENOSPC);
    done += static_cast<std::size_t>(w);
    written_ += static_cast<std::uint64_t>(w);
  }
  return std::nullopt;
}

std::optional<Diagnostic> OutputFile::write(std::string_view text) {
  return write(std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
}

std::optional<Diagnostic> OutputFile::commit() {
  if (fd_ < 0) return io_error("E-IO-004", fmt::format("'{}' is closed already", path_), {});
  // Data on the disk before the name points at it: a crash after the rename cannot leave an
  // empty or partial file under the target's name.
  int e = injected(WriteStep::Sync);
  if (e == 0 && ::fsync(fd_) != 0) e = errno;
  if (e != 0) return fail(fmt::format("flushing '{}' to the disk (fsync)", temp_), e);
  e = injected(WriteStep::Close);
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0 && e == 0 && errno != EINTR) e = errno;
  if (e != 0) return fail(fmt::format("closing '{}'", temp_), e);

  // The target may have changed while the work ran.
  struct stat st {};
  if (::lstat(path_.c_str(), &st) == 0) {
    if (!S_ISREG(st.st_mode)) {
      discard();
      return not_regular_error(path_, st);
    }
    if (!overwrite_) {
      discard();
      return exists_error(path_);
    }
  }
  e = injected(WriteStep::Rename);
  if (e == 0) {
    int rc = 0;
    if (overwrite_) {
      rc = ::rename(temp_.c_str(), path_.c_str());
    } else {
      rc = ::renameat2(AT_FDCWD, temp_.c_str(), AT_FDCWD, path_.c_str(), RENAME_NOREPLACE);
      // File systems without RENAME_NOREPLACE: link() refuses an existing name just as well.
      if (rc != 0 && (errno == EINVAL || errno == ENOSYS)) {
        rc = ::link(temp_.c_str(), path_.c_str());
        if (rc == 0) ::unlink(temp_.c_str());
      }
    }
    if (rc != 0) e = errno;
  }
  if (e == EEXIST && !overwrite_) {
    discard();
    return exists_error(path_);
  }
  if (e != 0) return fail(fmt::format("renaming '{}' to '{}'", temp_, path_), e);
  temp_.clear(); // it is the target now
  release_temporary(slot_);
  slot_ = -1;
  // The rename itself on the disk (best effort: some file systems cannot sync a directory).
  const int dir = ::open(directory_of(path_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
  return std::nullopt;
}

std::optional<Diagnostic> write_file(const std::string& path, std::span<const std::uint8_t> bytes,
                                     bool overwrite) {
  auto f = OutputFile::create(path, overwrite);
  if (!f) return f.diagnostics().front();
  if (auto d = f->write(bytes)) return d;
  return f->commit();
}

std::optional<Diagnostic> write_file(const std::string& path, std::string_view text,
                                     bool overwrite) {
  return write_file(
      path, std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()), overwrite);
}

} // namespace tujit::runtime::io
