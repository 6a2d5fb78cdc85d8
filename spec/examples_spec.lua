-- Every examples/*.lua runs to completion in a child interpreter: exit status 0,
-- nothing on stderr, output on stdout, and for the examples listed in `checks` the
-- lines that show it did its job. The child gets this busted's package.path and
-- package.cpath, so it loads the same build (./build, or ./build-asan under
-- `make sanitize`, whose LD_PRELOAD and ASAN_OPTIONS it inherits).
local LOBBY = "examples/data/limbo_spawn.schem"

local H = require "helpers.world"
local C = require "helpers.compat"
local LUA = C.LUA -- the interpreter running the suite

-- POSIX shell single quoting.
local function shell_quote(s)
  return "'" .. s:gsub("'", [['\'']]) .. "'"
end

-- Run `examples/<name> [args]`; returns the exit code, stdout and stderr.
local function run(name, args)
  local setup = ("package.path = %q; package.cpath = %q"):format(package.path, package.cpath)
  local err = os.tmpname()
  local cmd = table.concat({ LUA, "-e", shell_quote(setup), shell_quote("examples/" .. name),
                             args or "", "2>" .. shell_quote(err) }, " ")
  local out, how, code = C.run(cmd)
  local stderr = assert(H.read_file(err))
  os.remove(err)
  assert.equal("exit", how, name .. " was killed by a signal\n" .. stderr)
  return code, out, stderr
end

local function lines(s)
  local t = {}
  for l in s:gmatch("[^\n]*") do t[#t + 1] = l end
  return t
end

-- The example files, sorted (examples/ holds only .lua files and no spaces).
local function example_files()
  local p = assert(io.popen("ls examples", "r"))
  local names = {}
  for name in p:lines() do
    if name:match("%.lua$") then names[#names + 1] = name end
  end
  p:close()
  table.sort(names)
  return names
end

local function has_line(out, line)
  for _, l in ipairs(lines(out)) do
    if l == line then return true end
  end
  return false
end

local function assert_line(out, line)
  assert.is_true(has_line(out, line), "missing line: " .. line .. "\n-- output:\n" .. out)
end

-- Per-example checks on stdout; an example without an entry gets only the generic
-- ones (exit 0, empty stderr, non-empty stdout).
local checks = {}

-- 10 rows, one per simulated second; an overlap is at most the width 0.6 (two mobs
-- at the same X/Z), strictly less under "separate" (it parts even coincident mobs;
-- Beta's push skips pairs closer than 0.01 on both axes), and the crowd keeps moving.
local function crowd_rows(out, n, push)
  local most = push == "separate" and 0.6 - 1e-9 or 0.6
  assert_line(out, ("%d mobs in a 24x24 pen, push = %s"):format(n, push))
  assert_line(out, "  time   max overlap (blocks)   max speed (blocks/tick)")
  local seconds = {}
  for s, overlap, speed in out:gmatch("\n +(%d+) s +(%S+) +(%S+)") do
    overlap, speed = tonumber(overlap), tonumber(speed)
    assert.is_true(overlap >= 0 and overlap <= most, "overlap " .. overlap)
    assert.is_true(speed > 0 and speed < 1, "speed " .. speed)
    seconds[#seconds + 1] = tonumber(s)
  end
  assert.same({ 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 }, seconds)
end

checks["crowd.lua"] = function(out) crowd_rows(out, 400, "separate") end

-- The clock runs 20 ticks a second of frame time: 2.233 s of frames, 44 ticks; the
-- 0.25 s hitch runs its 5 ticks at once (max_ticks 10: nothing dropped); both walkers
-- keep a walking speed near 4.3 blocks/s (Beta 0.2159 b/t x 20; MC-CPP walk_speed).
checks["game_loop.lua"] = function(out)
  assert_line(out, "hitch: a 0.25 s frame ran 5 ticks, dropped 0.00 s")
  assert_line(out, "120 frames, 2.233 s, 44 ticks (19.7 per second)")
  for who in ("Beta,MC-CPP"):gmatch("[^,]+") do
    local v = tonumber(out:match(who:gsub("%-", "%%-") .. " walker +([%d.]+) blocks/s"))
    assert.is_true(v and v > 3.9 and v < 4.4, who .. " " .. tostring(v))
  end
end

-- Every landing and hit is seen whatever the frame: the two falls land in ticks 19 and
-- 23 (12 and 16 blocks: Beta's fall distance excludes the landing tick's drop), the
-- hay bale takes 80 % off ceil(15.91 - 3) = 13, every tap bonks the ceiling once
-- (but the first, in the first tick, when the jumper has not stood yet).
checks["events.lua"] = function(out)
  assert_line(out, "tick  19  thud: diver landed on stone after 10.81 blocks: 8 damage, health 12")
  assert_line(out, "tick  23  thud: faller landed on hay_block after 15.91 blocks: 3 damage, health 17")
  assert_line(out, "tick  18  bump: walker hit the wall block (-3, 64, 6) at 4.32 blocks/s")
  local _, bonks = out:gsub("bonk: jumper hit the ceiling at 8.40 blocks/s, bounced to vy %-0.210", "")
  assert.equal(9, bonks) -- ten taps, one every 40 frames; the first comes before it stands
  assert_line(out, "400 frames, 7.98 s, 159 ticks; the last tick was 159")
end

-- The same numbers on every interpreter (seeded network, deterministic worlds).
checks["rollback.lua"] = function(out)
  assert_line(out, "200 ticks, latency 3..7 ticks: the server guessed 84 late inputs")
  assert_line(out, "client: 139 server states checked, 70 mispredictions corrected (restore and replay)")
  local hs, hc = out:match("final hashes: server (%x+), client (%x+): equal")
  assert.is_truthy(hs, out)
  assert.equal(hs, hc)
end

checks["lobby.lua"] = function(out)
  assert_line(out, "loaded " .. LOBBY .. ": 41 x 48 x 35 (width x height x length), 25 palette entries")
  assert_line(out, "  every block state had a known shape")
  local settled, at_rest, on_top = out:match("after (%d+) ticks: (%d+) at rest, (%d+) exactly on the highest")
  assert.is_truthy(settled, "no settling line\n" .. out)
  local dropped = out:match("dropped (%d+) entities")
  assert.is_truthy(dropped, "no drop line\n" .. out)
  assert.equal(dropped, at_rest)
  assert.equal(dropped, on_top)
  assert.truthy(out:match("\nfinal position %(%-?[%d.]+, %-?[%d.]+, %-?[%d.]+%); overlapping boxes: 0\n$"),
    "no final line with 0 overlapping boxes\n" .. out)
end

checks["swept_vs_axis.lua"] = function(out)
  local sections = {}
  for title in out:gmatch("\n== ([^\n]*)") do sections[#sections + 1] = title end
  assert.same({
    "walk +X over a floor of separate blocks",
    "onto the slabs at x = 4 (0.5 high)",
    "off the slabs and into the full-block wall at x = 12",
    "diagonally into the inside corner of the walls x = 12 and z = 3",
    "one move of (1.5, 0, 3) past the corner of the pillar at x 16..17, z 1..2",
    "a fast fall: vy = -1320 b/s (22 blocks in one tick) from y = 84",
  }, sections)
  local _, whys = out:gsub("\n  why: ", "")
  assert.equal(#sections, whys)
  -- The two headline differences, exact (docs/mccpp.md, "Choosing a resolver").
  assert_line(out, "  swept moved (1.500000, 3.000000)  axis moved (1.500000, 0.200000)")
  assert_line(out, "  swept y = 64.022000  axis y = 64.000000  on_ground true / true")
end

-- The drifter covers 0.07 blocks a tick in the current (0.014 a tick, less a fifth
-- to the water drag each tick: docs/beta173.md "Water currents"), goes over the edge and
-- sinks into the pool; the anchored one (water_current = 0) stays; walking upstream
-- nets 0.098 - 0.07 = 0.028 b/t.
checks["river.lua"] = function(out)
  assert_line(out, " 100      8.2200      1.5000      2.8120")
  local x, y = out:match("drifter   ends at x = (%S+), y = (%S+), in water: true")
  assert.is_true(tonumber(x) > 8 and tonumber(y) < 0, out)
  assert_line(out, "anchored  ends at x = 1.5000, y = 1.0000, in water: true")
end

-- The raft carries both riders 4 blocks along X, 2 up and 2 down again, exactly
-- (steps of 0.2 and 0.1 sum without rounding here); the player's jump leaves it
-- 0.42 (jump_impulse) above the raft for a tick and lands it back on it.
checks["platform.lua"] = function(out)
  assert_line(out, "settle (10 ticks)            raft (0.50, 64.00)  player (0.00, 64.5000) riding, "
    .. "on_ground true   mob (1.20, 64.5000) riding")
  assert_line(out, "slide +X 0.2 b/t (20 ticks)  raft (4.50, 64.00)  player (4.00, 64.5000) riding, "
    .. "on_ground true   mob (5.20, 64.5000) riding")
  assert_line(out, "rise 0.1 b/t (20 ticks)      raft (4.50, 66.00)  player (4.00, 66.5000) riding, "
    .. "on_ground true   mob (5.20, 66.5000) riding")
  assert_line(out, "player jumps (1 tick)        raft (4.50, 66.00)  player (4.00, 66.9200) off, "
    .. "on_ground false  mob (5.20, 66.5000) riding")
  assert_line(out, "lands again (15 ticks)       raft (4.50, 66.00)  player (4.00, 66.5000) riding, "
    .. "on_ground true   mob (5.20, 66.5000) riding")
  assert_line(out, "down 0.1 b/t (20 ticks)      raft (4.50, 64.00)  player (4.00, 64.5000) riding, "
    .. "on_ground true   mob (5.20, 64.5000) riding")
  assert.truthy(out:match("\nplayer walks off %(30 ticks%)  raft %(4%.50, 64%.00%)  player %(%S+, "
    .. "64%.0000%) off, on_ground true   mob %(%S+, 64%.0000%) off\n$"), out)
end

checks["mechanics.lua"] = function(out)
  assert_line(out, "jump (30 ticks, highest 1.2522)    player y 1.0625 on_ground true    mob x  -0.58 y 0.0000")
  assert_line(out, "mob walks on (30 ticks)            player y 1.0625 on_ground true    mob x   5.89 y 0.0000")
  assert_line(out, "player sneaks (20 ticks)           player y 0.0000 on_ground true    mob x  10.21 y 0.0000")
  assert_line(out, "collision ray: stone at (8, -1, 8)")
  assert_line(out, "outline ray:   minecraft:poppy at (8, 0, 8), face (0, 0, -1), distance 3.1117")
  -- the plate's enter opens the door before the walker reaches it; its leave follows
  assert_line(out, "tick 91: guest steps on the plate: the door opens")
  assert_line(out, "tick 99: the plate is free again (guest at x -11.52)")
  assert_line(out, "guest at x -1.81, past the door: true")
  -- the crate stops at the ceiling (6 - 0.9), the rider under it (1.8F), the lift
  -- under the rider: carried up 2.8 of the 4 asked, and back down to the floor
  assert_line(out, "standing               lift y 0.0000  rider y 0.5000 on_ground true   crate y 2.3000")
  assert_line(out, "up (40 ticks)          lift y 2.8000  rider y 3.3000 on_ground true   crate y 5.1000")
  assert_line(out, "down (60 ticks)        lift y 0.0000  rider y 0.5000 on_ground true   crate y 2.3000")
end

describe("examples", function()
  local files = example_files()

  it("include every example with specific checks", function()
    local present = {}
    for _, name in ipairs(files) do present[name] = true end
    for name in pairs(checks) do
      assert.is_true(present[name], "examples/" .. name .. " is missing")
    end
  end)

  for _, name in ipairs(files) do
    it(name .. " runs to completion", function()
      local code, out, stderr = run(name)
      assert.equal(0, code, name .. " exited with " .. tostring(code) .. "\n" .. stderr)
      assert.equal("", stderr)
      assert.is_true(out:match("%S") ~= nil, name .. " printed nothing")
      if checks[name] then checks[name](out) end
    end)
  end

  it("crowd.lua takes the push model and the crowd size from its arguments", function()
    local code, out, stderr = run("crowd.lua", "beta173 50")
    assert.equal(0, code, stderr)
    crowd_rows(out, 50, "beta173")
  end)
end)
