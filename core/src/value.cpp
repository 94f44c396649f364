#include "roofline/value.hpp"

#include <new>
#include <stdexcept>

#include "roofline/number_text.hpp"

namespace roofline::json {

Value Value::array(std::vector<Value> items) {
  Value v;
  new (&v.members_) Members{std::move(items), {}};
  v.kind_ = Kind::array;
  return v;
}

Value Value::object() {
  Value v;
  new (&v.members_) Members{};
  v.kind_ = Kind::object;
  return v;
}

Value::Value(const Value& other) : kind_(other.kind_) {
  switch (kind_) {
    case Kind::null: break;
    case Kind::boolean: boolean_ = other.boolean_; break;
    case Kind::number: number_ = other.number_; break;
    case Kind::string: new (&string_) std::string(other.string_); break;
    case Kind::array:
    case Kind::object: new (&members_) Members(other.members_); break;
  }
}

Value::Value(Value&& other) noexcept { take(std::move(other)); }

Value& Value::operator=(const Value& other) {
  if (this != &other) *this = Value(other);
  return *this;
}

Value& Value::operator=(Value&& other) noexcept {
  if (this != &other) {
    Value moved(std::move(other));  // other may live inside *this
    if (kind_ >= Kind::string) destroy();
    take(std::move(moved));
  }
  return *this;
}

void Value::take(Value&& other) noexcept {
  kind_ = other.kind_;
  switch (kind_) {
    case Kind::null: break;
    case Kind::boolean: boolean_ = other.boolean_; break;
    case Kind::number: number_ = other.number_; break;
    case Kind::string: new (&string_) std::string(std::move(other.string_)); break;
    case Kind::array:
    case Kind::object: new (&members_) Members(std::move(other.members_)); break;
  }
}

void Value::destroy() noexcept {
  if (kind_ == Kind::string) {
    string_.~basic_string();
  } else {
    members_.~Members();
  }
}

const std::string& Value::string() const {
  static const std::string none;
  return kind_ == Kind::string ? string_ : none;
}

const std::vector<Value>& Value::items() const {
  static const std::vector<Value> none;
  return kind_ == Kind::array || kind_ == Kind::object ? members_.items : none;
}

const std::vector<std::string>& Value::keys() const {
  static const std::vector<std::string> none;
  return kind_ == Kind::object ? members_.keys : none;
}

Value::Members& Value::object_members() {
  if (kind_ == Kind::null) *this = object();
  if (kind_ != Kind::object) throw std::logic_error("a key added to a value that is not an object");
  if (members_.keys.empty()) {
    // results are objects of about a dozen fields: one allocation each instead of five growths
    members_.keys.reserve(16);
    members_.items.reserve(16);
  }
  return members_;
}

Value& Value::set(std::string key, Value v) & {
  if (const Value* found = find(key)) {
    const_cast<Value&>(*found) = std::move(v);  // *this is not const: nor is what it holds
    return *this;
  }
  return add(std::move(key), std::move(v));
}

Value& Value::set_text(std::string_view key, Value&& v) {
  if (const Value* found = find(key)) {
    const_cast<Value&>(*found) = std::move(v);
    return *this;
  }
  return add_text(key, std::move(v));
}

Value& Value::add(std::string key, Value v) & {
  Members& m = object_members();
  m.keys.push_back(std::move(key));
  m.items.push_back(std::move(v));
  return *this;
}

Value& Value::add_text(std::string_view key, Value&& v) {
  Members& m = object_members();
  m.keys.emplace_back(key);
  m.items.push_back(std::move(v));
  return *this;
}

Value& Value::push(Value v) & {
  if (kind_ == Kind::null) *this = array();
  if (kind_ != Kind::array) throw std::logic_error("an element pushed onto a value that is not an array");
  members_.items.push_back(std::move(v));
  return *this;
}

const Value* Value::find(std::string_view key) const {
  if (kind_ != Kind::object) return nullptr;
  for (std::size_t i = 0; i < members_.keys.size(); ++i) {
    if (members_.keys[i] == key) return &members_.items[i];
  }
  return nullptr;
}

const Value& Value::get(std::string_view key) const {
  if (const Value* v = find(key)) return *v;
  throw std::out_of_range("no key " + std::string(key));
}

std::string describe(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::null: return "null";
    case Value::Kind::boolean: return v.boolean() ? "true" : "false";
    case Value::Kind::number: return format_number(v.number());
    case Value::Kind::string: return "the text \"" + v.string().substr(0, 40) + "\"";
    case Value::Kind::array: return "a list";
    case Value::Kind::object: return "an object";
  }
  return "?";
}

}  // namespace roofline::json
