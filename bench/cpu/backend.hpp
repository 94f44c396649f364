#pragma once

#include <memory>
#include <string>

#include "../common/case.hpp"

namespace rlk::cpu {
std::unique_ptr<Backend> make_cpu_backend();
/// Whether `id` names a software prefetch for Options::prefetch: "none" or "ahead".
bool prefetch_id_known(const std::string& id);
/// Checks an --isa or --int-dot value: "" when this CPU runs it, else why not (unknown id, or a
/// variant this CPU lacks), with the ids it does run.
std::string isa_choice_error(const std::string& id);
std::string int_dot_choice_error(const std::string& id);
}  // namespace rlk::cpu
