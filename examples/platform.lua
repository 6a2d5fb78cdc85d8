--- platform.lua: a moving platform that carries what stands on it. A solid entity
-- spawned with `carry = true` moves its riders (the entities whose ground it is, and
-- what stands on them) by its own displacement, each through its resolver: a raft
-- slides with a player and a mob on it, rises as a lift, the player jumps on it while
-- it stands, and it comes down again. The raft is moved by its velocity, set before
-- each tick (docs/mechanics.md, "Carrying platforms").
--
-- Run from the checkout root after `make` (which links the modules into ./blockphys/):
--   lua5.4 examples/platform.lua
-- (a copy installed by `make install` or LuaRocks, if any, is found first)
local bp = require "blockphys"

local world = bp.World()
world:define_block{ name = "stone" }
world:fill(-4, 63, -4, 12, 63, 4, "stone") -- floor: top at y = 64

-- The raft: a solid carrying entity without gravity or pushes, moved by its velocity.
local raft = world:spawn{ x = 0.5, y = 64, z = 0.5, width = 3, height = 0.5, solid = true,
  carry = true, rules = bp.rules.beta173{ gravity = 0, push = false } }
local player = world:spawn{ x = 0, y = 64.5, z = 0.5 }
local mob = world:spawn{ x = 1.2, y = 64.5, z = 0.5 }

local function report(label)
  local function state(e)
    return ("(%.2f, %.4f) %s"):format(e.x, e.y, select(2, e:ground()) == raft and "riding" or "off")
  end
  print(("%-28s raft (%.2f, %.2f)  player %s, on_ground %-5s  mob %s")
    :format(label, raft.x, raft.y, state(player), tostring(player.on_ground), state(mob)))
end

-- Each phase: ticks of world:step, the raft's velocity (blocks/tick) set before each.
local function run(label, ticks, dx, dy, dz)
  for _ = 1, ticks do
    raft.vx, raft.vy, raft.vz = dx, dy, dz
    world:step()
  end
  report(label)
end

run("settle (10 ticks)", 10, 0, 0, 0)
run("slide +X 0.2 b/t (20 ticks)", 20, 0.2, 0, 0)
run("rise 0.1 b/t (20 ticks)", 20, 0, 0.1, 0)
player.jumping = true
run("player jumps (1 tick)", 1, 0, 0, 0)
player.jumping = false
run("lands again (15 ticks)", 15, 0, 0, 0)
run("down 0.1 b/t (20 ticks)", 20, 0, -0.1, 0)
player.forward, player.yaw = 1, -90 -- walk off toward +X
run("player walks off (30 ticks)", 30, 0, 0, 0)
