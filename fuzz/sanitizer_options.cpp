// ASan's defaults for every fuzz target (an ASAN_OPTIONS setting still wins). A fuzz target frees and
// allocates thousands of small blocks per input: with ASan's default 256 MiB quarantine each new block lands
// on a page not touched for a while (a page fault), and each allocation records a 30-frame stack. 16 MiB and
// 8 frames made the JSON-heavy targets 10-25% faster (bench/fuzz_speed.sh: explain 1942 -> 2158 exec/s, fleet
// 1913 -> 2359) and still catch a use after free within the same input, which is where a parser's would be.
// The fuzz-pack build has no ASan and never calls this.
extern "C" const char* __asan_default_options() {
  return "quarantine_size_mb=16:malloc_context_size=8";
}
