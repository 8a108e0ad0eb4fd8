// What SIGINT, SIGTERM and SIGHUP do to a tujit process: the temporaries of unfinished outputs
// (output_file.h) are removed before the process dies of the signal, so an interrupted command
// leaves neither a half-written file nor a stray temporary. Work that can stop cleanly between
// steps (a sweep between two points) opens a GracefulStop scope: the first signal only raises
// a flag the work polls, so it can keep what it finished; a second signal ends the process as
// above. Handlers are installed when first needed, and only over the default disposition (a
// signal the parent ignores, as under nohup, stays ignored; another handler is left alone).
#pragma once

namespace tujit::runtime::io {

/// Registers `path` (a temporary being written) for removal when a signal ends the process;
/// returns a slot for release_temporary(), or -1 when every slot is taken (the file is then only
/// removed by the normal paths). Async-signal-safe removal: the path is copied into a fixed slot.
int register_temporary(const char* path);
/// Forgets the slot (after the temporary was renamed into place or removed).
void release_temporary(int slot);

/// While one exists, the first SIGINT / SIGTERM / SIGHUP sets stop_requested() instead of ending
/// the process. Nestable; not copyable.
class GracefulStop {
public:
  GracefulStop();
  ~GracefulStop();
  GracefulStop(const GracefulStop&) = delete;
  GracefulStop& operator=(const GracefulStop&) = delete;
};

/// The signal that asked a GracefulStop scope to stop, 0 when none has.
int stop_requested();
/// Forgets a stop request (tests; a new command in the same process).
void clear_stop_request();

} // namespace tujit::runtime::io
