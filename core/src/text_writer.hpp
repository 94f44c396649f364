// The writer under the core's JSON and number text (json_write.cpp, number_text.cpp): appends
// straight into a std::string's storage. Private to core/src.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace roofline::text {

// Writes straight into the string's own storage, grown ahead of what is written and trimmed by
// finish(): most pieces are a character or a few, and appending each to a std::string costs a
// call that the size-optimized WebAssembly build does not inline. (A buffer of its own, appended
// to the string when full, cost a second copy of the whole text: at -Oz, Emscripten's libc
// copies and fills memory a byte at a time.)
class Writer {
 public:
  explicit Writer(std::string& out) : out_(out), start_(out.size()), p_(nullptr), end_(nullptr) { grow(start_, 0); }
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;

  void put(char c) {
    if (p_ == end_) grow(written(), 1);
    *p_++ = c;
  }
  void put(const char* s, std::size_t n) {
    std::memcpy(room(n), s, n);
    p_ += n;
  }
  void put(std::string_view s) { put(s.data(), s.size()); }
  void put(std::size_t count, char c) {
    for (std::size_t i = 0; i < count; ++i) put(c);
  }
  /// Where to write the next n bytes directly (then wrote()).
  char* room(std::size_t n) {
    if (static_cast<std::size_t>(end_ - p_) < n) grow(written(), n);
    return p_;
  }
  /// Ends a direct write that room() began, at `end`.
  void wrote(char* end) { p_ = end; }
  /// Trims the string to what was written.
  void finish() { out_.resize(written()); }

 private:
  std::string& out_;
  std::size_t start_;  // the string's size before
  char* p_;
  char* end_;

  [[nodiscard]] std::size_t written() const { return static_cast<std::size_t>(p_ - out_.data()); }

  // Makes room for n more bytes after the first `used`, and for half as many again as written
  // so far. Growing the string fills the new part with zeros, so it grows in steps near what is
  // written rather than to its capacity at once (which cost a small result 2.5 µs in wasm).
  void grow(std::size_t used, std::size_t n) {
    out_.resize(used + std::max(n, (used - start_) / 2 + 256));
    p_ = out_.data() + used;
    end_ = out_.data() + out_.size();
  }
};

/// Appends x as JavaScript writes a number: the shortest digits that read back as x (Grisu2; a
/// fraction of a percent get one digit more), "NaN", "Infinity", "-Infinity", "-0".
void append_number(double x, Writer& out);

}  // namespace roofline::text
