--- events.lua: a game reacting to what its ticks did, at any frame rate.
-- Fall damage by the block landed on (a hay bale takes 80 % off, as in the game),
-- landing and wall-hit sounds (printed), and a bounce off the ceiling (the player's
-- vy becomes -0.5 times its speed into the ceiling). The frames are uneven (30 to 144
-- fps, with a hitch), so several ticks often run in one frame: world:events() and
-- on_tick still see every landing and every hit, each in its tick.
--
-- Run from the checkout root after `make`:  lua5.4 examples/events.lua
local bp = require "blockphys"

local world = bp.World()
local stone = world:define_block{ name = "stone" }
local hay = world:define_block{ name = "hay_block" }
world:fill(-8, 63, -8, 8, 63, 8, stone) -- the floor: top at y = 64
world:fill(3, 63, -1, 5, 63, 1, hay)    -- a hay bale patch in it
world:fill(-8, 64, 6, 8, 66, 6, stone)  -- a wall at z = 6
world:fill(-8, 66, -8, -5, 66, -5, stone) -- a low ceiling over one corner (face at y = 66)

local DAMAGE_FACTOR = { [hay] = 0.2 } -- Beta's fall damage: ceil(fall - 3) half-hearts
local health = {}

local faller = world:spawn{ x = 4.5, y = 80, z = 0.5 }  -- drops 16 blocks onto hay
local diver = world:spawn{ x = 0.5, y = 76, z = 0.5 }   -- drops 12 blocks onto stone
local walker = world:spawn{ x = -2.5, y = 64, z = 2.5 } -- walks into the wall
local jumper = world:spawn{ x = -6.5, y = 64, z = -6.5 } -- jumps under the ceiling
local names = { [faller] = "faller", [diver] = "diver", [walker] = "walker", [jumper] = "jumper" }
for e in pairs(names) do health[e] = 20 end
world.hit_speed = 2 -- blocks/s: quiet for the footsteps' small floor stops

local function react(w, tick)
  for _, ev in ipairs(w:events()) do
    local who = names[ev.entity]
    if ev.type == "land" then
      local block = ev.kind == "block" and w:block_info(ev.id).name or ev.kind
      local damage = math.max(0, math.ceil(ev.fall - 3))
      damage = math.floor(damage * (DAMAGE_FACTOR[ev.id] or 1) + 0.5)
      health[ev.entity] = health[ev.entity] - damage
      print(("tick %3d  thud: %s landed on %s after %.2f blocks: %d damage, health %d")
        :format(tick, who, block, ev.fall, damage, health[ev.entity]))
    elseif ev.type == "hit" and ev.ny == -1 then
      -- a head hit: bounce down at half the speed it came up with (Beta: blocks/tick)
      ev.entity.vy = -0.5 * ev.speed / 20
      print(("tick %3d  bonk: %s hit the ceiling at %.2f blocks/s, bounced to vy %.3f")
        :format(tick, who, ev.speed, ev.entity.vy))
    elseif ev.type == "hit" and ev.ny == 0 then
      print(("tick %3d  bump: %s hit the wall block (%d, %d, %d) at %.2f blocks/s")
        :format(tick, who, ev.x, ev.y, ev.z, ev.speed))
    end
  end
end

-- Uneven frames: 30, 60 and 144 fps in turn, and one 0.4 s hitch.
local frames = { 1 / 30, 1 / 60, 1 / 144 }
local ticks, t = 0, 0
for frame = 1, 400 do
  local dt = frame == 200 and 0.4 or frames[frame % 3 + 1]
  walker:set_input(1, 0, 0, false, false)           -- toward +Z, into the wall
  jumper:set_input(0, 0, 0, frame % 40 == 1, false) -- a one-frame tap now and then
  local n = world:advance(dt, react)
  ticks, t = ticks + n, t + dt
end
print(("%d frames, %.2f s, %d ticks; the last tick was %d"):format(400, t, ticks, world.tick))
for e, who in pairs(names) do
  if health[e] < 20 then print(("%s ends with health %d"):format(who, health[e])) end
end
