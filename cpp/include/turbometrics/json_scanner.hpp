// A scanner of JSON text that reads exactly what Python's json module
// reads: the tokens (whitespace, literals, strings as UTF-8 with Python's
// 'surrogatepass' handling of lone surrogates, numbers) and the validation
// and skipping of any value, with malformed text reported as JsonError with
// its byte offset. Numbers convert as json.loads converts them (a float
// token as float(token), an integer token as int(token), float(int(token))
// where a double is stored). The COCO results reader
// (detection/results_json.hpp) reads its schema with it.
#pragma once

#include <charconv>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <system_error>

namespace turbometrics::json {

// A malformed text. A std::invalid_argument, so Python sees a ValueError.
class JsonError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

inline bool is_digit(int c) { return c >= '0' && c <= '9'; }

inline int hex_value(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// A scanned JSON number (or NaN / Infinity / -Infinity).
struct Number {
  const char* start;
  const char* stop;
  uint64_t mantissa;  // the significant digits, when digits <= 19
  int64_t exponent;   // value = mantissa * 10^exponent, when digits <= 19
  int64_t magnitude;  // decimal exponent of the leading nonzero digit
  int digits;         // significant digits (after leading zeros)
  bool negative;
  bool integer;  // no fraction and no exponent: Python reads an int
  bool zero;     // every digit is 0
  bool special;  // NaN or an infinity
  double special_value;
};

// Python (3.11+) refuses to convert integers of more digits than this.
constexpr int64_t max_int_digits = 4300;

// The double Python's json gives (float(token), or float(int(token)) for an
// integer token); false when an integer is too large for a double.
inline bool number_to_double(const Number& n, double& out) {
  if (n.special) {
    out = n.special_value;
    return true;
  }
  if (n.zero) {  // int("-0") is 0, float("-0.0") is -0.0
    out = (n.negative && !n.integer) ? -0.0 : 0.0;
    return true;
  }
  static constexpr double powers[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                      1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  if (n.digits <= 19) {
    if (n.exponent == 0) {  // one correctly rounded conversion
      const double v = static_cast<double>(n.mantissa);
      out = n.negative ? -v : v;
      return true;
    }
    // Clinger's fast path: both operands exact, one correctly rounded operation.
    if (n.mantissa <= (uint64_t{1} << 53) && n.exponent >= -22 && n.exponent <= 22) {
      const double m = static_cast<double>(n.mantissa);
      const double v = n.exponent < 0 ? m / powers[-n.exponent] : m * powers[n.exponent];
      out = n.negative ? -v : v;
      return true;
    }
  }
  double v = 0.0;
  const auto result = std::from_chars(n.start, n.stop, v, std::chars_format::general);
  if (result.ec == std::errc()) {
    out = v;
    return true;
  }
  // Out of range: beyond the largest double (float() gives inf, int
  // overflows) or below half the smallest subnormal (float() gives 0).
  if (n.magnitude >= 0) {
    if (n.integer) return false;
    out = n.negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
  } else {
    out = n.negative ? -0.0 : 0.0;
  }
  return true;
}

// The int64 Python's json gives; false for a float token or out of range.
inline bool number_to_int64(const Number& n, int64_t& out) {
  if (!n.integer || n.special || n.digits > 19) return false;
  const uint64_t limit = n.negative ? (uint64_t{1} << 63) : (uint64_t{1} << 63) - 1;
  if (n.mantissa > limit) return false;
  out = n.negative ? static_cast<int64_t>(0 - n.mantissa) : static_cast<int64_t>(n.mantissa);
  return true;
}

// The scanning state and the readers of tokens and values. A reader of a
// schema derives from it and reads its own structure with these.
class Scanner {
 protected:
  // `what` names the text in error messages ("results JSON").
  Scanner(const char* data, std::size_t size, const char* what)
      : begin_(data), p_(data), end_(data + size), what_(what) {}

  const char* const begin_;
  const char* p_;
  const char* const end_;
  const char* const what_;
  int64_t row_ = -1;  // the top-level element being read (errors name it), -1 outside

  // ---- errors ---------------------------------------------------------
  [[noreturn]] void fail_at(const char* where, const std::string& message) const {
    std::string text = std::string(what_) + ": ";
    if (row_ >= 0) text += "row " + std::to_string(row_) + ": ";
    text += message + " (at byte " + std::to_string(where - begin_) + ")";
    throw JsonError(text);
  }
  [[noreturn]] void fail(const std::string& message) const { fail_at(p_, message); }

  bool at_end() const { return p_ >= end_; }
  void skip_ws() {
    while (p_ < end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
  }
  void expect(char c, const char* message) {
    if (at_end() || *p_ != c) fail(message);
    ++p_;
  }
  bool starts_number() const {
    if (at_end()) return false;
    const char c = *p_;
    return is_digit(c) || c == '-' || c == 'N' || c == 'I';
  }
  bool literal(const char* word, std::size_t n) {
    if (static_cast<std::size_t>(end_ - p_) < n || std::memcmp(p_, word, n) != 0) return false;
    p_ += n;
    return true;
  }

  // ---- numbers ----------------------------------------------------------
  // Reads a number at p_ (starts_number() is true).
  Number scan_number() {
    Number n{};
    n.start = p_;
    if (*p_ == '-') {
      n.negative = true;
      ++p_;
    }
    if (!at_end() && (*p_ == 'I' || *p_ == 'N')) {
      n.special = true;
      if (literal("Infinity", 8)) {
        n.special_value =
            n.negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
      } else if (!n.negative && literal("NaN", 3)) {
        n.special_value = std::numeric_limits<double>::quiet_NaN();
      } else {
        fail_at(n.start, "invalid JSON value");
      }
      n.stop = p_;
      return n;
    }
    if (at_end() || !is_digit(*p_)) fail_at(n.start, "invalid JSON number");
    uint64_t mantissa = 0;
    int64_t digits = 0;         // significant digits seen
    int64_t int_digits = 0;     // integer-part digits after leading zeros
    int64_t leading_zeros = 0;  // zeros after the point before the first nonzero digit
    int64_t frac_digits = 0;    // fraction digits kept in the mantissa count
    if (*p_ == '0') {
      ++p_;
    } else {
      while (!at_end() && is_digit(*p_)) {
        if (digits < 19) mantissa = mantissa * 10 + static_cast<uint64_t>(*p_ - '0');
        ++digits;
        ++p_;
      }
      int_digits = digits;
    }
    n.integer = true;
    if (!at_end() && *p_ == '.') {
      n.integer = false;
      ++p_;
      if (at_end() || !is_digit(*p_)) fail_at(n.start, "invalid JSON number");
      while (!at_end() && is_digit(*p_)) {
        const int d = *p_ - '0';
        if (digits == 0 && d == 0) {
          ++leading_zeros;
        } else {
          if (digits < 19) {
            mantissa = mantissa * 10 + static_cast<uint64_t>(d);
            ++frac_digits;
          }
          ++digits;
        }
        ++p_;
      }
    }
    int64_t exponent = 0;
    if (!at_end() && (*p_ == 'e' || *p_ == 'E')) {
      n.integer = false;
      ++p_;
      bool negative_exponent = false;
      if (!at_end() && (*p_ == '+' || *p_ == '-')) negative_exponent = *p_++ == '-';
      if (at_end() || !is_digit(*p_)) fail_at(n.start, "invalid JSON number");
      while (!at_end() && is_digit(*p_)) {
        if (exponent < 1000000000) exponent = exponent * 10 + (*p_ - '0');
        ++p_;
      }
      if (negative_exponent) exponent = -exponent;
    }
    n.stop = p_;
    if (n.integer && int_digits > max_int_digits)
      fail_at(n.start, "integer with more than " + std::to_string(max_int_digits) + " digits");
    n.zero = digits == 0;
    n.digits = digits > 19 ? 20 : static_cast<int>(digits);
    n.mantissa = mantissa;
    // value = mantissa * 10^(exponent - frac_digits - leading_zeros), when digits <= 19
    n.exponent = exponent - frac_digits - (int_digits == 0 ? leading_zeros : 0);
    n.magnitude = int_digits > 0 ? int_digits - 1 + exponent : exponent - leading_zeros - 1;
    return n;
  }

  // ---- strings ------------------------------------------------------------
  // Copies a string's characters (p_ just after the opening quote) as UTF-8
  // to `out` (anything with append(const char*, size_t), such as
  // std::string; nullptr skips them), and
  // leaves p_ after the closing quote. Lone surrogates from \u escapes are
  // encoded as Python's 'surrogatepass' encodes them.
  template <class Sink>
  void read_string_body(Sink* out) {
    for (;;) {
      const char* run = p_;
      while (p_ < end_) {
        const unsigned char c = static_cast<unsigned char>(*p_);
        if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80) break;
        ++p_;
      }
      if (out) out->append(run, static_cast<std::size_t>(p_ - run));
      if (at_end()) fail("unterminated string");
      const unsigned char c = static_cast<unsigned char>(*p_);
      if (c == '"') {
        ++p_;
        return;
      }
      if (c < 0x20) fail("invalid control character in a string");
      if (c >= 0x80) {
        const std::size_t n = utf8_length();
        if (out) out->append(p_, n);
        p_ += n;
        continue;
      }
      // an escape
      const char* escape = p_;
      ++p_;
      if (at_end()) fail("unterminated string");
      const char e = *p_++;
      char single = 0;
      switch (e) {
        case '"': single = '"'; break;
        case '\\': single = '\\'; break;
        case '/': single = '/'; break;
        case 'b': single = '\b'; break;
        case 'f': single = '\f'; break;
        case 'n': single = '\n'; break;
        case 'r': single = '\r'; break;
        case 't': single = '\t'; break;
        case 'u': break;
        default: fail_at(escape, "invalid escape in a string");
      }
      if (e != 'u') {
        if (out) out->append(&single, 1);
        continue;
      }
      uint32_t code = read_hex4(escape);
      if (code >= 0xD800 && code <= 0xDBFF && end_ - p_ >= 2 && p_[0] == '\\' && p_[1] == 'u') {
        const char* second = p_;
        p_ += 2;
        const uint32_t low = read_hex4(second);
        if (low >= 0xDC00 && low <= 0xDFFF) {
          code = 0x10000 + (((code - 0xD800) << 10) | (low - 0xDC00));
        } else {
          p_ = second;  // the second escape stands on its own
        }
      }
      if (out) {
        char bytes[4];
        out->append(bytes, encode_utf8(code, bytes));
      }
    }
  }

  uint32_t read_hex4(const char* escape) {
    if (end_ - p_ < 4) fail_at(escape, "invalid \\uXXXX escape");
    uint32_t code = 0;
    for (int i = 0; i < 4; ++i) {
      const int h = hex_value(p_[i]);
      if (h < 0) fail_at(escape, "invalid \\uXXXX escape");
      code = code * 16 + static_cast<uint32_t>(h);
    }
    p_ += 4;
    return code;
  }

  static std::size_t encode_utf8(uint32_t code, char* bytes) {
    if (code < 0x80) {
      bytes[0] = static_cast<char>(code);
      return 1;
    }
    if (code < 0x800) {
      bytes[0] = static_cast<char>(0xC0 | (code >> 6));
      bytes[1] = static_cast<char>(0x80 | (code & 0x3F));
      return 2;
    }
    if (code < 0x10000) {
      bytes[0] = static_cast<char>(0xE0 | (code >> 12));
      bytes[1] = static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      bytes[2] = static_cast<char>(0x80 | (code & 0x3F));
      return 3;
    }
    bytes[0] = static_cast<char>(0xF0 | (code >> 18));
    bytes[1] = static_cast<char>(0x80 | ((code >> 12) & 0x3F));
    bytes[2] = static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    bytes[3] = static_cast<char>(0x80 | (code & 0x3F));
    return 4;
  }

  // The length of the UTF-8 sequence at p_ (a byte >= 0x80), validated as
  // Python's 'surrogatepass' UTF-8 decoder does (encoded surrogates pass).
  std::size_t utf8_length() const {
    const auto byte = [&](std::ptrdiff_t i) -> int { return p_ + i < end_ ? static_cast<unsigned char>(p_[i]) : -1; };
    const int c = byte(0);
    const auto cont = [&](std::ptrdiff_t i, int low, int high) {
      const int b = byte(i);
      return b >= low && b <= high;
    };
    std::size_t n = 0;
    if (c >= 0xC2 && c <= 0xDF) {
      n = cont(1, 0x80, 0xBF) ? 2 : 0;
    } else if (c >= 0xE0 && c <= 0xEF) {
      const int low = c == 0xE0 ? 0xA0 : 0x80;
      n = cont(1, low, 0xBF) && cont(2, 0x80, 0xBF) ? 3 : 0;
    } else if (c >= 0xF0 && c <= 0xF4) {
      const int low = c == 0xF0 ? 0x90 : 0x80;
      const int high = c == 0xF4 ? 0x8F : 0xBF;
      n = cont(1, low, high) && cont(2, 0x80, 0xBF) && cont(3, 0x80, 0xBF) ? 4 : 0;
    }
    if (n == 0) fail("invalid UTF-8 in a string");
    return n;
  }

  void skip_string() {  // p_ at the opening quote
    ++p_;
    read_string_body(static_cast<std::string*>(nullptr));
  }

  // ---- generic values -------------------------------------------------------
  // Validates and skips any JSON value at p_ (iteratively: nesting depth is
  // bounded by memory only).
  void skip_value() {
    std::string closers;
    for (;;) {
      // a value at p_
      if (at_end()) fail("unexpected end of the text: expected a value");
      const char c = *p_;
      bool closed = true;  // a complete value was read
      if (c == '{' || c == '[') {
        ++p_;
        skip_ws();
        if (!at_end() && *p_ == (c == '{' ? '}' : ']')) {
          ++p_;
        } else {
          closers.push_back(c == '{' ? '}' : ']');
          if (c == '{') read_member_name();
          closed = false;
        }
      } else if (c == '"') {
        skip_string();
      } else if (starts_number()) {
        scan_number();
      } else if (!(literal("true", 4) || literal("false", 5) || literal("null", 4))) {
        fail("invalid JSON value");
      }
      if (!closed) continue;
      // after a complete value: close containers or move to the next element
      for (;;) {
        if (closers.empty()) return;
        skip_ws();
        if (at_end()) fail("unexpected end of the text inside a nested value");
        const char next = *p_;
        if (next == ',') {
          ++p_;
          skip_ws();
          if (closers.back() == '}') read_member_name();
          break;
        }
        if (next != closers.back()) fail(closers.back() == '}' ? "expected ',' or '}'" : "expected ',' or ']'");
        ++p_;
        closers.pop_back();
      }
    }
  }
  // Inside an object after '{' or ',' (and whitespace): "name" ':' ws.
  void read_member_name() {
    if (at_end() || *p_ != '"') fail("expected a key string");
    skip_string();
    skip_ws();
    expect(':', "expected ':' after a key");
    skip_ws();
  }
};

}  // namespace turbometrics::json
