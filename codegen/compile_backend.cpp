// Which compile backend a program has (compile_backend.h): the one linked in (the tests and
// benchmarks link tujit_codegen_llvm, which defines tujit_compile_backend), else — `tujit` — the
// shared library tujit_llvm, loaded on the first cache miss (or `tujit compile --emit`) from
// TUJIT_BACKEND_RELPATH beside the executable (the build tree and an install place it alike,
// codegen/CMakeLists.txt). A cached run never loads it: LLVM's static initialisers, its
// relocations and its pages are paid only by a process that compiles (README "Performance").
#include "codegen/compile_backend.h"
#include "codegen/build_identity.h"

#include <fmt/format.h>

#include <climits>
#include <mutex>
#include <optional>

#include <dlfcn.h>
#include <unistd.h>

// Weak: null unless the backend is linked into this program.
#pragma weak tujit_compile_backend

namespace tujit::codegen {
namespace {

bool linked_in() {
  return &tujit_compile_backend != nullptr;
}

/// The library's path: TUJIT_BACKEND_RELPATH from the directory of this executable.
std::string library_path() {
  char buf[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return {};
  const std::string exe(buf, static_cast<std::size_t>(n));
  return exe.substr(0, exe.rfind('/') + 1) + TUJIT_BACKEND_RELPATH;
}

Diagnostic cannot_load(const std::string& why) {
  Diagnostic d = make_error(
      "E-JIT-001", fmt::format("LLVM cannot generate code for this host: the compiler library "
                               "cannot be loaded: {}",
                               why));
  d.stage = "jit";
  return d;
}

Result<const CompileBackend*> load() {
  const std::string path = library_path();
  if (path.empty()) return cannot_load("the executable's path is unknown");
  // Never unloaded: compiled code does not depend on it, but its static objects live on.
  void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) return cannot_load(::dlerror());
  using Entry = const CompileBackend* (*)();
  auto entry = reinterpret_cast<Entry>(::dlsym(handle, "tujit_compile_backend"));
  if (entry == nullptr) return cannot_load(fmt::format("{} has no entry point", path));
  return entry();
}

} // namespace

Result<const CompileBackend*> compile_backend() {
  static std::mutex mu;
  static std::optional<Result<const CompileBackend*>> backend;
  std::lock_guard<std::mutex> lock(mu);
  if (!backend)
    backend.emplace(linked_in() ? Result<const CompileBackend*>(tujit_compile_backend()) : load());
  return *backend;
}

const std::string& compile_backend_identity() {
  static const std::string id = [] {
    if (linked_in()) return std::string();
    std::string b = file_build_id(library_path());
    return b.empty() ? std::string("none") : b;
  }();
  return id;
}

} // namespace tujit::codegen
