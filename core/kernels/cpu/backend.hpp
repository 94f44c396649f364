#pragma once

#include <memory>

#include "../common/case.hpp"

namespace rlk::cpu {
std::unique_ptr<Backend> make_cpu_backend();
}
