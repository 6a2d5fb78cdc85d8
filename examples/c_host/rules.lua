-- The game rules of examples/c_host: the C host (main.c) loads this file, calls
-- setup(world) on the world it made, reads `rules` for the 10,000 entities it spawns,
-- and steps them `ticks` times. Change a number here and the host's digest changes;
-- spec/c_host_spec.lua runs the same scene from Lua and expects the host's digest.
local bp = require "blockphys"

local M = {}

M.ticks = 100

-- Beta 1.7.3 movement, tuned: a higher jump and a stronger push between entities.
M.rules = bp.rules.beta173{ jump_impulse = 0.5, push_strength = 0.08 }

-- The arena: a stone floor 128 x 128 blocks with an ice rink in the middle, walls
-- around it and a row of slabs to step up on.
function M.setup(world)
  world:define_block{ name = "stone" }
  world:define_block{ name = "ice", slipperiness = 0.98 }
  world:define_block{ name = "slab", boxes = { { 0, 0, 0, 1, 0.5, 1 } } }
  world:fill(-64, -1, -64, 63, 0, 63, "stone")
  world:fill(-20, 0, -20, 19, 0, 19, "ice")
  world:fill(-64, 1, -64, 63, 3, -64, "stone")
  world:fill(-64, 1, 63, 63, 3, 63, "stone")
  world:fill(-64, 1, -64, -64, 3, 63, "stone")
  world:fill(63, 1, -64, 63, 3, 63, "stone")
  world:fill(-40, 1, 30, 40, 1, 30, "slab")
end

return M
