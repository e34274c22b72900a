// The whole public API of bng_properties.
#pragma once

#include "bng/properties/checks.hpp"
#include "bng/properties/families.hpp"
#include "bng/properties/generators.hpp"
#include "bng/properties/pick.hpp"
#include "bng/properties/reproducer.hpp"
#include "bng/properties/runner.hpp"
#include "bng/properties/target.hpp"
