// `gpudoctor db`: the knowledge base itself. `db show` prints its as-of date, where it came from, the
// entries per section and per file how many are confirmed and the oldest checked date; `db lint DIR`
// checks a data folder (schema, sources, dates, the invariants across files) before it is used with
// `--db DIR`, and changes nothing.
#pragma once

#include <string>

#include "cli/command.h"

namespace gpudoctor {

class DbCommand final : public Command {
 public:
  std::string Name() const override { return "db"; }
  std::string Summary() const override {
    return "Show the knowledge base (as-of date, counts) or lint a data folder for --db";
  }
  std::string Description() const override;
  void DefineFlags(FlagSet& flags) override;
  int Run(const CliContext& ctx) override;

 private:
  int Show(const CliContext& ctx);
  int Lint(const CliContext& ctx);

  std::string action_;
  std::string dir_;
  std::string db_;
  std::string today_;  // lint: "YYYY-MM-DD" instead of the clock's day (reproducible runs, tests)
  bool json_ = false;
};

}  // namespace gpudoctor
