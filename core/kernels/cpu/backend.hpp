#pragma once

#include <memory>
#include <string>

#include "../common/case.hpp"

namespace rlk::cpu {
std::unique_ptr<Backend> make_cpu_backend();
/// Whether `id` names a software prefetch for Options::prefetch: "none" or "ahead".
bool prefetch_id_known(const std::string& id);
}
