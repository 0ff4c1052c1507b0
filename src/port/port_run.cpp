// The file side of `gpudoctor port` (port_run.h): discovery, parallel translation, writing.
#include "port/port_run.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <thread>

#include "port/build_scan.h"

namespace gpudoctor {
namespace fs = std::filesystem;

bool IsPortSourceName(std::string_view name) {
  static constexpr std::string_view kExtensions[] = {".cu", ".cuh", ".cpp", ".cc",  ".cxx", ".c",
                                                     ".h",  ".hpp", ".hh",  ".hxx", ".inl", ".cuinl"};
  for (std::string_view ext : kExtensions)
    if (name.size() > ext.size() && name.substr(name.size() - ext.size()) == ext) return true;
  return false;
}

std::vector<Result<Translation>> TranslateAll(const std::vector<std::string>& texts, const PortMap& map,
                                              const PortOptions& options, unsigned threads) {
  std::vector<std::optional<Result<Translation>>> slots(texts.size());
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i; (i = next.fetch_add(1)) < texts.size();)
      slots[i].emplace(TranslateCuda(texts[i], map, options));
  };
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  threads = static_cast<unsigned>(std::min<size_t>(threads, std::max<size_t>(1, texts.size())));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  std::vector<Result<Translation>> out;
  out.reserve(texts.size());
  for (auto& s : slots) out.push_back(std::move(*s));
  return out;
}

namespace {

struct Found {
  std::vector<std::string> sources;  // relative to the folder (or the file itself)
  std::vector<std::string> build_files;
  std::vector<PortFileReport> skipped;  // links out of the folder: reported, never read or written
};

// Why the link `p` (a file of the folder) is not ported, or "" when it leads to a file inside the folder
// `root` (canonical). A link out of the tree would have the translation written beside or over its target.
std::string LinkOutOfTree(const fs::path& p, const fs::path& root) {
  std::error_code ec;
  const fs::path target = fs::canonical(p, ec);
  if (ec) return "a link that cannot be followed (" + ec.message() + ")";
  const fs::path inside = target.lexically_relative(root);
  if (!inside.empty() && *inside.begin() != "..") return "";
  return "a link to " + target.generic_string() + ", outside the input folder (never followed)";
}

// The entries of `folder` on disk.
Result<std::vector<fs::directory_entry>> ListFolder(const std::string& folder) {
  std::vector<fs::directory_entry> entries;
  std::error_code ec;
  fs::directory_iterator it(folder, ec), end;
  for (; !ec && it != end; it.increment(ec)) entries.push_back(*it);
  if (ec) return UserError(ec.message());
  return entries;
}

// A folder of the input that cannot be listed: reported like a file that cannot be read (issue 35,
// attempt 41: a mode-000 folder was left out without a word).
PortFileReport UnreadableFolder(const fs::path& folder, const Error& error) {
  PortFileReport skipped;
  skipped.path = folder.generic_string();
  skipped.error = "a folder that cannot be read, so nothing under it is ported (" + error.message + ")";
  return skipped;
}

// Whether two names are one folder: the two canonical paths compared (under wine the file system's own
// answer, std::filesystem::equivalent, does not see it), else the file system's answer (links, mounts).
bool SameFolder(const std::string& a, const std::string& b) {
  std::error_code ea, eb, ec;
  const fs::path ca = fs::weakly_canonical(a, ea), cb = fs::weakly_canonical(b, eb);
  if (!ea && !eb && (ca / "").lexically_normal() == (cb / "").lexically_normal()) return true;
  return fs::equivalent(a, b, ec);
}

// The sources and build files under `dir`, folder by folder (hidden folders, links to folders and the
// output folder `skip` are not entered).
Result<Found> Discover(const std::string& dir, const std::string& skip, const PortIo& io) {
  Found found;
  std::error_code ec;
  const fs::path root = fs::canonical(dir, ec);
  if (ec) return UserError("cannot list " + dir + ": " + ec.message());
  std::vector<fs::path> pending{fs::path(dir)};
  while (!pending.empty()) {
    const fs::path folder = std::move(pending.back());
    pending.pop_back();
    auto entries = io.list ? io.list(folder.string()) : ListFolder(folder.string());
    if (!entries.ok() && folder == fs::path(dir))
      return UserError("cannot list " + dir + ": " + entries.error().message);
    if (!entries.ok()) {
      found.skipped.push_back(UnreadableFolder(folder, entries.error()));
      continue;
    }
    for (const fs::directory_entry& entry : *entries) {
      const fs::path& p = entry.path();
      std::string name = p.filename().string();
      if (entry.is_directory(ec)) {
        const bool hidden = !name.empty() && name[0] == '.';
        if (!entry.is_symlink(ec) && !hidden && (skip.empty() || !SameFolder(p.string(), skip)))
          pending.push_back(p);
        continue;
      }
      if (!entry.is_regular_file(ec)) continue;
      // Lexically: fs::relative would follow a link and name its target, outside the folder (issue 35).
      std::string rel = p.lexically_relative(dir).generic_string();
      if (entry.is_symlink(ec) && (IsBuildFileName(name) || IsPortSourceName(name))) {
        if (std::string why = LinkOutOfTree(p, root); !why.empty()) {
          PortFileReport skipped;
          skipped.path = p.generic_string();
          skipped.error = std::move(why);
          found.skipped.push_back(std::move(skipped));
          continue;
        }
      }
      if (IsBuildFileName(name))
        found.build_files.push_back(rel);
      else if (IsPortSourceName(name))
        found.sources.push_back(rel);
    }
  }
  std::sort(found.sources.begin(), found.sources.end());
  std::sort(found.build_files.begin(), found.build_files.end());
  return found;
}

std::string Join(const std::string& dir, const std::string& rel) {
  return (fs::path(dir) / rel).generic_string();
}

// "src/" -> "src-hip": the new folder a hint suggests beside the input folder.
std::string SiblingFolder(std::string input) {
  while (input.size() > 1 && (input.back() == '/' || input.back() == '\\')) input.pop_back();
  return input + "-hip";
}

// The flags that do not go together, and -o naming the input folder itself (issue 35, attempt 42).
Status CheckJob(const PortJob& job, bool folder) {
  if (job.in_place && !job.output.empty()) return UserError("give -o or --in-place, not both");
  if (job.examine && (job.in_place || !job.output.empty()))
    return UserError("--examine writes nothing: leave out -o and --in-place");
  if (job.backup && !job.in_place) return UserError("--backup goes with --in-place");
  if (job.skip_existing && (job.output.empty() || job.force))
    return UserError(
        "--skip-existing goes with -o, and not with --force",
        "an interrupted --in-place run needs no flag: run it again (HIP source is left as it is)");
  if (folder && job.output.empty() && !job.in_place && !job.examine)
    return UserError("a folder needs -o OUT (a new folder), --in-place or --examine",
                     "gpudoctor port " + job.input + " -o " + SiblingFolder(job.input));
  if (folder && !job.output.empty() && SameFolder(job.input, job.output))
    return UserError(
        "-o " + job.output + " is the input folder itself",
        "give a new folder (-o " + SiblingFolder(job.input) + "), or --in-place to rewrite the files");
  return Ok{};
}

// The note for an output folder inside the input folder: it is left out of the walk.
std::string OutputInsideNote(const PortJob& job) {
  std::error_code ec;
  const fs::path in = fs::weakly_canonical(job.input, ec);
  const fs::path out = fs::weakly_canonical(job.output, ec);
  if (ec) return "";
  const fs::path inside = out.lexically_relative(in);
  if (inside.empty() || *inside.begin() == ".." || inside == ".") return "";
  return "the output folder " + job.output + " lies inside the input folder: it is not ported itself, but " +
         "a later run over " + job.input + " into another folder would port it too (put the output beside " +
         "the input, e.g. -o " + SiblingFolder(job.input) + ")";
}

// Writes the translation of `path` (original `original`) where the job says, and notes where in `file`.
Status WriteTranslation(const PortJob& job, const PortIo& io, const std::string& path, const std::string& out,
                        const std::string& original, const std::string& text, PortFileReport& file) {
  std::error_code ec;
  if (job.in_place) {
    if (!file.changed) return Ok{};  // no CUDA left (HIP already, from an interrupted run): not written
    if (job.backup) {
      if (auto st = io.write(path + ".orig", original, job.force); !st.ok())
        return st.error().With("keeping the original of " + path);
    }
    if (auto st = io.write(path, text, true); !st.ok()) return st.error();
    file.output = path;
    return Ok{};
  }
  file.output = out;
  if (job.skip_existing && fs::exists(fs::symlink_status(out, ec))) {
    file.kept_existing = true;  // written whole by an earlier run (a temporary, then a rename)
    return Ok{};
  }
  fs::create_directories(fs::path(out).parent_path().empty() ? fs::path(".") : fs::path(out).parent_path(),
                         ec);
  if (auto st = io.write(out, text, job.force); !st.ok()) {
    Error error = st.error().With("writing the translation of " + path);
    if (!job.force && fs::exists(fs::symlink_status(out, ec)))
      error.hint =
          "an earlier run wrote it? --skip-existing keeps the files that exist and writes the others; "
          "--force replaces them";
    return error;
  }
  return Ok{};
}

bool Stopped(const PortIo& io) {
  return io.stop_requested && io.stop_requested();
}

}  // namespace

Result<PortRunResult> RunPort(const PortJob& job, const PortMap& map, const PortIo& io) {
  std::error_code ec;
  const bool folder = fs::is_directory(job.input, ec);
  if (!folder && !fs::exists(job.input, ec)) return UserError(job.input + ": no such file or folder");
  if (Status st = CheckJob(job, folder); !st.ok()) return st.error();

  Found found;
  PortRunResult result;
  if (folder) {
    auto f = Discover(job.input, job.output, io);
    if (!f.ok()) return f.error();
    found = std::move(*f);
    if (!job.output.empty())
      if (std::string note = OutputInsideNote(job); !note.empty()) result.report.notes.push_back(note);
  } else {
    std::string name = fs::path(job.input).filename().string();
    (IsBuildFileName(name) ? found.build_files : found.sources).push_back(job.input);
  }
  auto path_of = [&](const std::string& rel) { return folder ? Join(job.input, rel) : rel; };

  result.report.examine = job.examine;
  result.report.hip_version = job.options.hip_version;
  result.report.sources = found.sources.size();
  std::vector<std::string> texts(found.sources.size());
  std::vector<std::string> read_errors(found.sources.size());
  for (size_t i = 0; i < found.sources.size(); ++i) {
    if ((result.report.interrupted = Stopped(io))) break;
    auto text = io.read(path_of(found.sources[i]));
    if (text.ok())
      texts[i] = std::move(*text);
    else
      read_errors[i] = text.error().message;
  }
  auto translations = result.report.interrupted ? std::vector<Result<Translation>>{}
                                                : TranslateAll(texts, map, job.options, job.threads);

  for (size_t i = 0; i < translations.size(); ++i) {
    if ((result.report.interrupted = Stopped(io))) break;  // between two files: each one is whole
    const std::string path = path_of(found.sources[i]);
    PortFileReport file;
    if (!read_errors[i].empty()) {
      file.error = read_errors[i];
    } else if (!translations[i].ok()) {
      file.error = translations[i].error().message +
                   (translations[i].error().hint.empty() ? "" : " (" + translations[i].error().hint + ")");
    } else {
      Translation& t = *translations[i];
      file = std::move(t.report);
      if (job.in_place || (!job.output.empty() && !job.examine)) {
        const std::string out = folder ? Join(job.output, found.sources[i]) : job.output;
        if (Status st = WriteTranslation(job, io, path, out, texts[i], t.text, file); !st.ok())
          return st.error();
      } else if (!job.examine) {
        result.translation = std::move(t.text);
      }
    }
    file.path = path;
    result.report.files.push_back(std::move(file));
  }
  for (PortFileReport& skipped : found.skipped) result.report.files.push_back(std::move(skipped));
  for (const std::string& rel : result.report.interrupted ? std::vector<std::string>{} : found.build_files) {
    const std::string path = path_of(rel);
    auto text = io.read(path);
    PortFileReport file;
    if (text.ok())
      file = ScanBuildFile(*text, map);
    else
      file.error = text.error().message;
    file.path = path;
    file.build_file = true;
    result.report.files.push_back(std::move(file));
  }
  std::sort(result.report.files.begin(), result.report.files.end(),
            [](const PortFileReport& a, const PortFileReport& b) { return a.path < b.path; });
  return result;
}

}  // namespace gpudoctor
