// Errors as values: every fallible function returns Result<T>, and the Error
// carries a message a user can act on plus the context added on the way up.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace gpudoctor {

// Who is at fault: the user's input or environment, or the tool itself.
enum class ErrorKind { kUser, kEnvironment, kInternal };

struct Error {
  ErrorKind kind = ErrorKind::kEnvironment;
  std::string message;  // what went wrong, in words a user can act on
  std::string hint;     // what to do about it (may be empty)

  // Prepends context ("reading /sys/...: " + message) while the error travels up.
  Error With(const std::string& context) const {
    Error e = *this;
    e.message = context + ": " + message;
    return e;
  }
};

inline Error UserError(std::string message, std::string hint = {}) {
  return Error{ErrorKind::kUser, std::move(message), std::move(hint)};
}
inline Error EnvError(std::string message, std::string hint = {}) {
  return Error{ErrorKind::kEnvironment, std::move(message), std::move(hint)};
}
inline Error InternalError(std::string message) {
  return Error{ErrorKind::kInternal, std::move(message), {}};
}

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}      // NOLINT: implicit on purpose
  Result(Error error) : v_(std::move(error)) {}  // NOLINT: implicit on purpose

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  const Error& error() const { return std::get<1>(v_); }

  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  T value_or(T fallback) const { return ok() ? value() : std::move(fallback); }
  std::optional<T> to_optional() const { return ok() ? std::optional<T>(value()) : std::nullopt; }

 private:
  std::variant<T, Error> v_;
};

// For functions that return nothing on success.
struct Ok {};
using Status = Result<Ok>;

}  // namespace gpudoctor
