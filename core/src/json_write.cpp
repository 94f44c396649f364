// Writing a json::Value as JSON text (roofline/json.hpp).
#include <string>
#include <string_view>

#include "roofline/json.hpp"
#include "text_writer.hpp"

namespace roofline::json {

namespace {

using text::append_number;
using text::Writer;

// A character JSON text must escape.
bool needs_escape(char c) { return c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20; }

void append_string(std::string_view s, Writer& out) {
  // Most text (every key) has nothing to escape: copied and checked in one pass, straight into
  // the string. At the first character to escape, the general loop below starts over.
  const char* end = s.data() + s.size();
  {
    char* to = out.room(s.size() + 2);
    *to++ = '"';
    const char* from = s.data();
    while (from != end && !needs_escape(*from)) *to++ = *from++;
    if (from == end) {
      *to++ = '"';
      out.wrote(to);
      return;
    }
  }
  out.put('"');
  const char* p = s.data();
  while (p != end) {
    const char* run = p;
    while (p != end && !needs_escape(*p)) ++p;
    out.put(run, static_cast<std::size_t>(p - run));
    if (p == end) break;
    const char c = *p++;
    switch (c) {
      case '"': out.put("\\\""); break;
      case '\\': out.put("\\\\"); break;
      case '\b': out.put("\\b"); break;
      case '\f': out.put("\\f"); break;
      case '\n': out.put("\\n"); break;
      case '\r': out.put("\\r"); break;
      case '\t': out.put("\\t"); break;
      default: {
        static constexpr char hex[] = "0123456789abcdef";
        const auto u = static_cast<unsigned char>(c);
        out.put("\\u00");
        out.put(hex[u >> 4]);
        out.put(hex[u & 15]);
      }
    }
  }
  out.put('"');
}

void write_value(const Value& value, Writer& out) {
  switch (value.kind()) {
    case Value::Kind::null: out.put("null"); return;
    case Value::Kind::boolean: out.put(value.boolean() ? "true" : "false"); return;
    case Value::Kind::number: append_number(value.number(), out); return;
    case Value::Kind::string: append_string(value.string(), out); return;
    case Value::Kind::array: {
      out.put('[');
      bool first = true;
      for (const Value& item : value.items()) {
        if (!first) out.put(',');
        first = false;
        write_value(item, out);
      }
      out.put(']');
      return;
    }
    case Value::Kind::object: {
      out.put('{');
      const auto& keys = value.keys();
      const auto& items = value.items();
      for (std::size_t i = 0; i < keys.size(); ++i) {
        if (i != 0) out.put(',');
        append_string(keys[i], out);
        out.put(':');
        write_value(items[i], out);
      }
      out.put('}');
      return;
    }
  }
}

}  // namespace

void write_json(const Value& value, std::string& out) {
  Writer writer(out);
  write_value(value, writer);
  writer.finish();
}

std::string write_json(const Value& value) {
  std::string out;
  write_json(value, out);
  return out;
}

}  // namespace roofline::json
