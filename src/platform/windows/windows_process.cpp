// Windows: running a child with a timeout. CreateProcessW with one pipe per
// stream, each served by its own thread so neither can fill up and deadlock;
// the child starts suspended inside a Job object, so a timeout (or the end of
// RunProcess) kills it and everything it started.
#include <windows.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "platform/process.h"
#include "platform/windows/windows_text.h"

namespace gpudoctor {
namespace {

using Clock = std::chrono::steady_clock;

class Handle {
 public:
  Handle() = default;
  explicit Handle(HANDLE h) : h_(h == INVALID_HANDLE_VALUE ? nullptr : h) {}
  Handle(Handle&& o) noexcept : h_(o.Release()) {}
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() { Close(); }
  HANDLE get() const { return h_; }
  HANDLE* out() {
    Close();
    return &h_;
  }
  HANDLE Release() { return std::exchange(h_, nullptr); }
  void Close() {
    if (h_) ::CloseHandle(h_);
    h_ = nullptr;
  }

 private:
  HANDLE h_ = nullptr;
};

Error LastError(const std::string& what) {
  return EnvError(what + ": " + WindowsErrorText(::GetLastError()));
}

// One argv element quoted the way CommandLineToArgvW and the C runtime split
// it again: backslashes are literal except before a quote, where they double.
void AppendQuoted(std::wstring& out, const std::wstring& arg) {
  if (!arg.empty() && arg.find_first_of(L" \t\n\v\"") == std::wstring::npos) {
    out += arg;
    return;
  }
  out += L'"';
  size_t backslashes = 0;
  for (wchar_t c : arg) {
    if (c == L'\\') {
      ++backslashes;
      continue;
    }
    if (c == L'"') {
      out.append(backslashes * 2 + 1, L'\\');
    } else {
      out.append(backslashes, L'\\');
    }
    backslashes = 0;
    out += c;
  }
  out.append(backslashes * 2, L'\\');  // they precede the closing quote
  out += L'"';
}

bool IsFile(const std::wstring& path) {
  DWORD attrs = ::GetFileAttributesW(path.c_str());
  return attrs != INVALID_FILE_ATTRIBUTES && !(attrs & FILE_ATTRIBUTE_DIRECTORY);
}

bool HasExtension(const std::wstring& name) {
  size_t slash = name.find_last_of(L"\\/");
  size_t dot = name.find_last_of(L'.');
  return dot != std::wstring::npos && (slash == std::wstring::npos || dot > slash);
}

// The file CreateProcessW will run: a path as given (".exe" added when it has
// no extension), a bare name searched on PATH only, never the current folder
// (CreateProcessW's own search would look there first).
Result<std::wstring> ResolveProgram(const std::string& name) {
  if (name.empty()) return UserError("empty program name");
  std::wstring wide = Utf8ToWide(name);
  auto try_file = [](const std::wstring& base) -> std::wstring {
    if (IsFile(base)) return base;
    if (!HasExtension(base) && IsFile(base + L".exe")) return base + L".exe";
    return {};
  };
  if (wide.find_first_of(L"\\/:") != std::wstring::npos) {
    std::wstring found = try_file(wide);
    if (found.empty()) return EnvError("cannot run " + name + ": no such file");
    return found;
  }
  DWORD size = ::GetEnvironmentVariableW(L"PATH", nullptr, 0);
  std::wstring path_list(size, L'\0');
  if (size > 0) path_list.resize(::GetEnvironmentVariableW(L"PATH", path_list.data(), size));
  size_t pos = 0;
  while (pos <= path_list.size()) {
    size_t end = path_list.find(L';', pos);
    if (end == std::wstring::npos) end = path_list.size();
    std::wstring dir = path_list.substr(pos, end - pos);
    pos = end + 1;
    if (dir.empty()) continue;
    if (dir.back() != L'\\' && dir.back() != L'/') dir += L'\\';
    std::wstring found = try_file(dir + wide);
    if (!found.empty()) return found;
  }
  return EnvError("cannot run " + name + ": not found on PATH");
}

bool SameNameIgnoringCase(const std::wstring& a, const std::wstring& b) {
  return ::CompareStringOrdinal(a.c_str(), static_cast<int>(a.size()), b.c_str(), static_cast<int>(b.size()),
                                TRUE) == CSTR_EQUAL;
}

// The parent's environment with `extra` on top (names compare without case, as
// Windows does), sorted as CreateProcessW expects, as a double-NUL-ended block.
std::wstring ChildEnvironmentBlock(const std::map<std::string, std::string>& extra) {
  std::vector<std::pair<std::wstring, std::wstring>> vars;  // name, "name=value"
  if (wchar_t* block = ::GetEnvironmentStringsW()) {
    for (const wchar_t* p = block; *p; p += std::wstring_view(p).size() + 1) {
      std::wstring entry(p);
      size_t eq = entry.find(L'=', 1);  // "=C:=C:\dir" entries keep their leading '='
      if (eq == std::wstring::npos) continue;
      vars.emplace_back(entry.substr(0, eq), entry);
    }
    ::FreeEnvironmentStringsW(block);
  }
  for (const auto& [key, value] : extra) {
    std::wstring name = Utf8ToWide(key);
    std::erase_if(vars, [&](const auto& v) { return SameNameIgnoringCase(v.first, name); });
    vars.emplace_back(name, name + L"=" + Utf8ToWide(value));
  }
  std::sort(vars.begin(), vars.end(), [](const auto& a, const auto& b) {
    return ::CompareStringOrdinal(a.first.c_str(), static_cast<int>(a.first.size()), b.first.c_str(),
                                  static_cast<int>(b.first.size()), TRUE) == CSTR_LESS_THAN;
  });
  std::wstring block;
  for (const auto& v : vars) {
    block += v.second;
    block += L'\0';
  }
  block += L'\0';
  return block;
}

// Pipe with the child's end inheritable and the parent's end not.
Status MakePipe(Handle& parent_end, Handle& child_end, bool child_reads) {
  SECURITY_ATTRIBUTES sa{sizeof(SECURITY_ATTRIBUTES), nullptr, TRUE};
  HANDLE read = nullptr, write = nullptr;
  if (!::CreatePipe(&read, &write, &sa, 0)) return LastError("CreatePipe failed");
  *(child_reads ? child_end.out() : parent_end.out()) = read;
  *(child_reads ? parent_end.out() : child_end.out()) = write;
  if (!::SetHandleInformation(parent_end.get(), HANDLE_FLAG_INHERIT, 0))
    return LastError("SetHandleInformation");
  return Ok{};
}

struct ReaderState {
  HANDLE pipe;
  std::string* text;
  const std::function<void(std::string_view)>* on_chunk;  // may hold no function
};

DWORD WINAPI ReadAll(void* arg) {
  auto* state = static_cast<ReaderState*>(arg);
  char buffer[65536];
  DWORD got = 0;
  while (::ReadFile(state->pipe, buffer, sizeof buffer, &got, nullptr) && got > 0) {
    state->text->append(buffer, got);
    if (state->on_chunk && *state->on_chunk) (*state->on_chunk)(std::string_view(buffer, got));
  }
  return 0;
}

struct WriterState {
  HANDLE pipe;
  const std::string* text;
};

DWORD WINAPI WriteAll(void* arg) {
  auto* state = static_cast<WriterState*>(arg);
  size_t done = 0;
  while (done < state->text->size()) {
    DWORD chunk = static_cast<DWORD>(std::min<size_t>(state->text->size() - done, 1 << 20));
    DWORD wrote = 0;
    if (!::WriteFile(state->pipe, state->text->data() + done, chunk, &wrote, nullptr)) break;
    done += wrote;
  }
  ::CloseHandle(state->pipe);  // EOF for the child
  return 0;
}

// A job that kills its processes when its last handle closes.
Handle MakeKillOnCloseJob() {
  Handle job(::CreateJobObjectW(nullptr, nullptr));
  if (!job.get()) return job;
  JOBOBJECT_EXTENDED_LIMIT_INFORMATION limits{};
  limits.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
  ::SetInformationJobObject(job.get(), JobObjectExtendedLimitInformation, &limits, sizeof limits);
  return job;
}

// How many times a start that failed with ERROR_INTERNAL_ERROR is tried in all (RunProcess says why).
constexpr int kStartAttempts = 3;

DWORD MillisUntil(Clock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return static_cast<DWORD>(std::clamp<long long>(left, 0, 0x7fffffff));
}

// Starts the program suspended. ERROR_INTERNAL_ERROR says nothing about the program: the system failed to
// start it this time. Wine does that now and then when its loader cannot be spawned (seen once in CI in
// ~2,900 starts), so a start that failed that way is tried twice more. Every other error (no such file,
// access denied) is final at once.
Result<PROCESS_INFORMATION> StartSuspended(const std::wstring& program, std::wstring& command_line,
                                           std::wstring& environment, STARTUPINFOEXW& startup, DWORD flags) {
  PROCESS_INFORMATION info{};
  DWORD create_error = 0;
  for (int attempt = 1; attempt <= kStartAttempts; ++attempt) {
    if (::CreateProcessW(program.c_str(), command_line.data(), nullptr, nullptr, TRUE, flags,
                         environment.data(), nullptr, &startup.StartupInfo, &info))
      return info;
    create_error = ::GetLastError();
    if (create_error != ERROR_INTERNAL_ERROR) break;
    ::Sleep(static_cast<DWORD>(100 * attempt));
  }
  return EnvError("cannot start " + WideToUtf8(program) + ": " + WindowsErrorText(create_error));
}

// Ends the child and whatever it started: the whole job where the child is in one, else the child.
void KillChild(HANDLE process, HANDLE job, bool in_job) {
  if (in_job) {
    ::TerminateJobObject(job, 1);
  } else {
    ::TerminateProcess(process, 1);
  }
}

// Waits for the child until the deadline (then ends it) and reads its exit code; processes the child left
// behind may still hold the pipes: the stream threads get until the deadline, then the job ends them all.
void WaitForChild(HANDLE process, HANDLE job, bool in_job, const std::vector<HANDLE>& threads,
                  Clock::time_point deadline, ProcessResult& result) {
  if (::WaitForSingleObject(process, MillisUntil(deadline)) == WAIT_TIMEOUT) {
    result.timed_out = true;
    KillChild(process, job, in_job);
    ::WaitForSingleObject(process, 5000);
  } else {
    DWORD code = 0;
    if (::GetExitCodeProcess(process, &code)) result.exit_code = static_cast<int>(code);
  }
  if (!threads.empty() && ::WaitForMultipleObjects(static_cast<DWORD>(threads.size()), threads.data(), TRUE,
                                                   MillisUntil(deadline)) == WAIT_TIMEOUT) {
    KillChild(process, job, in_job);
    ::WaitForMultipleObjects(static_cast<DWORD>(threads.size()), threads.data(), TRUE, INFINITE);
  }
}

}  // namespace

Result<ProcessResult> RunProcess(const ProcessRequest& request) {
  if (request.argv.empty()) return InternalError("RunProcess: empty argv");
  auto program = ResolveProgram(request.argv.front());
  if (!program) return program.error();

  std::wstring command_line;
  for (const auto& arg : request.argv) {
    if (!command_line.empty()) command_line += L' ';
    AppendQuoted(command_line, Utf8ToWide(arg));
  }
  std::wstring environment = ChildEnvironmentBlock(request.extra_env);

  Handle in_parent, in_child, out_parent, out_child, err_parent, err_child;
  if (auto s = MakePipe(in_parent, in_child, true); !s) return s.error();
  if (auto s = MakePipe(out_parent, out_child, false); !s) return s.error();
  if (auto s = MakePipe(err_parent, err_child, false); !s) return s.error();

  // Only the three pipe ends are inherited, even when other threads start
  // processes at the same time.
  HANDLE inherited[3] = {in_child.get(), out_child.get(), err_child.get()};
  SIZE_T attr_size = 0;
  ::InitializeProcThreadAttributeList(nullptr, 1, 0, &attr_size);
  std::vector<char> attr_storage(attr_size);
  auto* attrs = reinterpret_cast<LPPROC_THREAD_ATTRIBUTE_LIST>(attr_storage.data());
  if (!::InitializeProcThreadAttributeList(attrs, 1, 0, &attr_size))
    return LastError("InitializeProcThreadAttributeList");
  bool have_list = ::UpdateProcThreadAttribute(attrs, 0, PROC_THREAD_ATTRIBUTE_HANDLE_LIST, inherited,
                                               sizeof inherited, nullptr, nullptr) != 0;

  STARTUPINFOEXW startup{};
  startup.StartupInfo.cb = sizeof startup;
  startup.StartupInfo.dwFlags = STARTF_USESTDHANDLES;
  startup.StartupInfo.hStdInput = in_child.get();
  startup.StartupInfo.hStdOutput = out_child.get();
  startup.StartupInfo.hStdError = err_child.get();
  if (have_list) startup.lpAttributeList = attrs;

  const Clock::time_point start = Clock::now();
  const DWORD flags = CREATE_SUSPENDED | CREATE_UNICODE_ENVIRONMENT | CREATE_NO_WINDOW |
                      (have_list ? EXTENDED_STARTUPINFO_PRESENT : 0);
  auto started = StartSuspended(*program, command_line, environment, startup, flags);
  ::DeleteProcThreadAttributeList(attrs);
  if (!started) return started.error();
  const PROCESS_INFORMATION info = *started;
  Handle process(info.hProcess), thread(info.hThread);
  Handle job = MakeKillOnCloseJob();
  bool in_job = job.get() && ::AssignProcessToJobObject(job.get(), process.get());
  ::ResumeThread(thread.get());
  in_child.Close();
  out_child.Close();
  err_child.Close();

  ProcessResult result;
  ReaderState out_state{out_parent.get(), &result.stdout_text, &request.on_stdout};
  ReaderState err_state{err_parent.get(), &result.stderr_text, nullptr};
  WriterState in_state{in_parent.get(), &request.stdin_text};
  Handle out_thread(::CreateThread(nullptr, 0, ReadAll, &out_state, 0, nullptr));
  Handle err_thread(::CreateThread(nullptr, 0, ReadAll, &err_state, 0, nullptr));
  Handle in_thread;
  if (request.stdin_text.empty()) {
    in_parent.Close();
  } else {
    *in_thread.out() = ::CreateThread(nullptr, 0, WriteAll, &in_state, 0, nullptr);
    if (in_thread.get()) {
      in_parent.Release();  // the writer thread closes it
    } else {
      in_parent.Close();
    }
  }

  std::vector<HANDLE> threads;
  for (const Handle* t : {&out_thread, &err_thread, &in_thread}) {
    if (t->get()) threads.push_back(t->get());
  }
  WaitForChild(process.get(), job.get(), in_job, threads, start + request.timeout, result);
  result.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
  return result;
}

Result<std::string> CurrentExecutablePath() {
  std::wstring buffer(MAX_PATH, L'\0');
  while (true) {
    DWORD n = ::GetModuleFileNameW(nullptr, buffer.data(), static_cast<DWORD>(buffer.size()));
    if (n == 0) return LastError("GetModuleFileNameW failed");
    if (n < buffer.size()) return WideToUtf8(std::wstring_view(buffer.data(), n));
    buffer.resize(buffer.size() * 2);
  }
}

uint32_t CurrentProcessId() {
  return static_cast<uint32_t>(::GetCurrentProcessId());
}

}  // namespace gpudoctor
