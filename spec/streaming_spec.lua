-- luacheck: std +busted
-- Streamed chunks (docs/streaming.md): World:load_chunk, World:chunk_data,
-- World:unload_chunk, world.unset, frozen entities, rays and sweeps in unloaded space.
local bp = require "blockphys"

-- The bytes of a chunk whose cell (x, y, z) holds f(x, y, z): little-endian uint16 at
-- index y*256 + z*16 + x (the documented order).
local function chunk(f)
  local t = {}
  for i = 0, 4095 do
    local x, z, y = i % 16, math.floor(i / 16) % 16, math.floor(i / 256)
    local id = f(x, y, z)
    t[i + 1] = string.char(id % 256, math.floor(id / 256))
  end
  return table.concat(t)
end

local function air() return 0 end

local function new_world()
  local w = bp.World()
  local stone = w:define_block{ name = "stone" }
  local slab = w:define_block{ name = "slab", boxes = { { 0, 0, 0, 1, 0.5, 1 } } }
  return w, stone, slab
end

describe("World:load_chunk and World:chunk_data", function()
  it("sets a whole chunk in the documented order and reads it back", function()
    local w, stone, slab = new_world()
    local data = chunk(function(x, y, z)
      if (x + 2 * y + 3 * z) % 7 == 0 then return stone end
      return (x * y + z) % 5 == 0 and slab or 0
    end)
    w:load_chunk(-1, 2, 3, data)
    assert.equal(data, w:chunk_data(-1, 2, 3))
    for _, c in ipairs{ { 0, 0, 0 }, { 15, 0, 0 }, { 0, 15, 0 }, { 0, 0, 15 }, { 5, 9, 11 } } do
      local x, y, z = c[1], c[2], c[3]
      local i = y * 256 + z * 16 + x
      local want = data:byte(2 * i + 1) + 256 * data:byte(2 * i + 2)
      assert.equal(want, w:get_block(-16 + x, 32 + y, 48 + z))
    end
    -- the same as set_block cell by cell
    local w2 = new_world()
    for y = 0, 15 do for z = 0, 15 do for x = 0, 15 do
      w2:set_block(-16 + x, 32 + y, 48 + z, w:get_block(-16 + x, 32 + y, 48 + z))
    end end end
    assert.equal(data, w2:chunk_data(-1, 2, 3))
    assert.equal(w2:stats().blocks, w:stats().blocks)
  end)

  it("stores a chunk of one id without an array, and replaces a loaded chunk", function()
    local w, stone = new_world()
    w:load_chunk(0, 0, 0, chunk(function() return stone end))
    assert.equal(4096, w:stats().blocks)
    assert.equal(stone, w:get_block(15, 15, 15))
    w:load_chunk(0, 0, 0, chunk(function(_, y) return y == 0 and stone or 0 end))
    assert.equal(256, w:stats().blocks)
    assert.equal(0, w:get_block(3, 1, 3))
    assert.equal(stone, w:get_block(3, 0, 3))
  end)

  it("keeps no entry for a chunk that a fill clears to air", function()
    local w, stone = new_world()
    w:fill(0, 0, 0, 127, 127, 127, stone)
    assert.equal(512, w:stats().chunks)
    w:fill(0, 0, 0, 127, 127, 127, "air")
    assert.equal(0, w:stats().chunks)
    assert.equal(0, w:stats().blocks)
    w:fill(0, 0, 0, 20, 20, 20, stone)
    w:fill(0, 0, 0, 15, 15, 15, "air") -- one whole chunk cleared, seven kept
    assert.equal(7, w:stats().chunks)
    assert.equal(stone, w:get_block(16, 16, 16))
    assert.equal(0, w:get_block(0, 0, 0))
    -- where unset space is unloaded, an air chunk is loaded space: it stays
    w.unset = "unloaded"
    w:fill(16, 0, 0, 31, 15, 15, "air")
    assert.equal(7, w:stats().chunks)
    assert.equal(0, w:get_block(16, 0, 0))
  end)

  it("reads air where nothing is stored", function()
    local w = new_world()
    assert.equal(string.rep("\0", 8192), w:chunk_data(100, -3, 7))
  end)

  it("rejects bad data and changes nothing", function()
    local w, stone = new_world()
    local before = chunk(function(x) return x == 3 and stone or 0 end)
    w:load_chunk(0, 0, 0, before)
    assert.has_error(function() w:load_chunk(0, 0, 0, "abc") end,
      "load_chunk: data must be 8192 bytes (4096 little-endian uint16 ids), got 3")
    assert.has_error(function() w:load_chunk(0, 0, 0, before .. "x") end,
      "load_chunk: data must be 8192 bytes (4096 little-endian uint16 ids), got 8193")
    assert.has_error(function() w:load_chunk(0, 0, 0, nil) end)
    assert.has_error(function() w:load_chunk(0, 0, 0, {}) end)
    local bad = chunk(function(x, y, z) return (x == 4 and y == 2 and z == 1) and 77 or stone end)
    assert.has_error(function() w:load_chunk(0, 0, 0, bad) end,
      "load_chunk: cell (4, 2, 1) (byte 1065) holds id 77, which is not a defined block type")
    assert.equal(before, w:chunk_data(0, 0, 0))
    assert.has_error(function() w:load_chunk(0.5, 0, 0, before) end,
      "bad argument #1 to 'load_chunk' (chunk coordinate must be an integer in [-134217728, 134217727])")
    assert.has_error(function() w:load_chunk(0, 2 ^ 27, 0, before) end)
    assert.has_error(function() w:load_chunk(0, 0 / 0, 0, before) end)
    assert.has_error(function() w:chunk_data(0, 0, math.huge) end)
  end)

  it("is refused inside world:step", function()
    local w, stone = new_world()
    local data = chunk(function() return stone end)
    local err
    w:spawn{ x = 0.5, y = 70, z = 0.5, rules = bp.rules.beta173{ heading = function()
      local ok, e = pcall(w.load_chunk, w, 0, 0, 0, data)
      if not ok then err = e end
      return 0, 0
    end } }
    w:step()
    assert.matches("load_chunk: world is locked", err)
    assert.equal(0, w:get_block(0, 0, 0))
  end)
end)

describe("unloaded space", function()
  it("is air by default; world.unset = 'unloaded' makes unset space unloaded", function()
    local w = new_world()
    assert.equal("air", w.unset)
    assert.equal(0, w:get_block(0, 500, 0))
    w.unset = "unloaded"
    assert.equal("unloaded", w.unset)
    local id = w:get_block(0, 500, 0)
    assert.equal("blockphys:unloaded", w:block_info(id).name)
    assert.is_nil(w:chunk_data(0, 31, 0))
    w.unset = "air"
    assert.equal(0, w:get_block(0, 500, 0))
    assert.has_error(function() w.unset = "void" end,
      "world field 'unset' must be \"air\" or \"unloaded\"")
    assert.has_error(function() w.unset = true end)
  end)

  it("unload_chunk frees a chunk; set_block and fill there raise and change nothing", function()
    local w, stone = new_world()
    w:fill(0, 0, 0, 31, 15, 15, stone)
    w:unload_chunk(1, 0, 0)
    assert.is_nil(w:chunk_data(1, 0, 0))
    assert.equal(4096, w:stats().blocks)
    assert.has_error(function() w:set_block(16, 0, 0, 0) end,
      "set_block: block (16, 0, 0) lies in unloaded space (load its chunk first)")
    assert.has_error(function() w:fill(0, 0, 0, 16, 0, 0, 0) end,
      "fill: the region reaches into unloaded space (load its chunks first)")
    assert.equal(stone, w:get_block(0, 0, 0)) -- the fill wrote nothing
    local id = w:get_block(16, 0, 0)
    assert.has_error(function() w:set_block(0, 0, 0, id) end,
      "set_block: the unloaded block type is placed only by unload_chunk")
    assert.has_error(function() w:load_chunk(2, 0, 0, chunk(function() return id end)) end,
      "load_chunk: cell (0, 0, 0) (byte 1) holds the unloaded block type, which only unload_chunk places")
    w:load_chunk(1, 0, 0, chunk(air))
    assert.equal(0, w:get_block(16, 0, 0))
    w:set_block(16, 0, 0, stone)
  end)

  it("drops the chunk's entry when unset space is unloaded", function()
    local w, stone = new_world()
    w.unset = "unloaded"
    for cx = 0, 9 do w:load_chunk(cx, 0, 0, chunk(function(x) return x == 0 and stone or 0 end)) end
    assert.equal(10, w:stats().chunks)
    for cx = 0, 9, 2 do w:unload_chunk(cx, 0, 0) end
    assert.equal(5, w:stats().chunks)
    assert.equal(5 * 256, w:stats().blocks)
    for cx = 1, 9, 2 do assert.equal(stone, w:get_block(cx * 16, 3, 3)) end
    for cx = 0, 9, 2 do assert.is_nil(w:chunk_data(cx, 0, 0)) end
    w:unload_chunk(0, 0, 0) -- again: nothing to do
    assert.equal(5, w:stats().chunks)
  end)

  it("names its block type 'blockphys:unloaded'; a game's type of that name is refused", function()
    local w = new_world()
    w:define_block{ name = "blockphys:unloaded" }
    assert.has_error(function() w:unload_chunk(0, 0, 0) end,
      "unload_chunk: a block type named 'blockphys:unloaded' exists (the name is reserved for unloaded space)")
    assert.has_error(function() w.unset = "unloaded" end)
    assert.equal("air", w.unset)
  end)

  it("blocks moves: a falling entity lands on it and freezes until it loads", function()
    local w, stone = new_world()
    w:unload_chunk(0, 0, 0)
    local e = w:spawn{ x = 8, y = 20, z = 8 }
    for _ = 1, 40 do w:step() end
    assert.equal(16, e.y) -- on the top face of the unloaded chunk
    assert.is_true(e.frozen)
    local y, vy = e.y, e.vy
    w:step()
    assert.equal(y, e.y)
    assert.equal(vy, e.vy)
    w:load_chunk(0, 0, 0, chunk(function(_, yy) return yy == 4 and stone or 0 end))
    for _ = 1, 40 do w:step() end
    assert.is_false(e.frozen)
    assert.equal(5, e.y)
  end)

  it("stops a walker at its face; it stays frozen while touching it", function()
    local w, stone = new_world()
    w:fill(-32, 63, -32, 47, 63, 47, stone)
    w:unload_chunk(1, 4, 0) -- blocks x 16..31, y 64..79, z 0..15
    local e = w:spawn{ x = 8, y = 64, z = 8, yaw = -90 } -- facing +X
    e.forward = 1
    for _ = 1, 100 do w:step() end
    assert.equal(16 - 0.30000001192092896, e.x) -- width 0.6F
    assert.is_true(e.x <= 16 - 0.3)
    assert.is_true(e.frozen)
    w:load_chunk(1, 4, 0, chunk(air))
    for _ = 1, 20 do w:step() end
    assert.is_false(e.frozen)
    assert.is_true(e.x > 17)
  end)

  it("leaves frozen entities where they are: pushes move only their partners", function()
    local w, stone = new_world()
    w:fill(-16, 63, -16, 31, 63, 31, stone)
    w:unload_chunk(1, 4, 0) -- blocks x 16..31, y 64..79, z 0..15
    local sep = bp.rules.beta173{ push = "separate" }
    local a = w:spawn{ x = 15.7, y = 64, z = 8, rules = sep } -- touches the unloaded chunk
    local b = w:spawn{ x = 15.3, y = 64, z = 8, rules = sep }
    w:step()
    assert.is_true(a.frozen)
    assert.is_false(b.frozen)
    assert.equal(15.7, a.x)
    assert.equal(8, a.z)
    assert.is_true(b.x < 15.3)
    -- the Beta push leaves a frozen entity's velocity alone too
    local beta = bp.rules.beta173{ push = "beta173" }
    local c = w:spawn{ x = 15.7, y = 64, z = 4, rules = beta }
    local d = w:spawn{ x = 15.5, y = 64, z = 4, rules = beta }
    w:step()
    assert.is_true(c.frozen)
    assert.equal(0, c.vx)
    assert.equal(0, c.vz)
    assert.is_true(d.vx < 0)
  end)

  it("is reported by rays and sweeps", function()
    local w = new_world()
    w:unload_chunk(0, 1, 0)
    local hit = w:raycast(8.5, 40, 8.5, 0, -1, 0, 100)
    assert.is_true(hit.unloaded)
    assert.equal(31, hit.y)
    assert.equal(32, hit.hy)
    local t, _, _, _, shit = w:sweep(bp.Collider(8, 40, 8, 9, 41, 9), 0, -20, 0)
    assert.equal(8 / 20, t)
    assert.is_true(shit.unloaded)
    local all = w:sweep_all(bp.Collider(8, 40, 8, 9, 41, 9), 0, -20, 0)
    assert.equal("block", all[1].kind)
    assert.is_true(all[1].unloaded)
    -- a block a game placed is not unloaded
    local stone = w:block_id("stone")
    w:set_block(8, 50, 8, stone)
    assert.is_nil(w:raycast(8.5, 60, 8.5, 0, -1, 0, 100).unloaded)
  end)

  it("keeps a walker over a map whose chunks load late above its floor", function()
    -- a streamed strip: each chunk ahead is loaded some ticks after the walker could
    -- reach it; the walker never leaves the floor and never enters a block
    local w, stone = new_world()
    w.unset = "unloaded"
    local floor = chunk(function(_, y) return y == 15 and stone or 0 end)
    local function load(cx)
      for cz = -1, 1 do
        w:load_chunk(cx, 3, cz, floor)
        w:load_chunk(cx, 4, cz, chunk(air))
        w:load_chunk(cx, 5, cz, chunk(air))
      end
    end
    for cx = -1, 1 do load(cx) end
    local e = w:spawn{ x = 8, y = 64, z = 8, yaw = -90 }
    e.forward = 1
    local loaded, frozen_ticks = 1, 0
    for tick = 1, 600 do
      w:step()
      assert.is_true(e.y >= 64, "tick " .. tick)
      if e.frozen then frozen_ticks = frozen_ticks + 1 end
      if tick % 100 == 0 then loaded = loaded + 1; load(loaded) end
    end
    assert.is_true(frozen_ticks > 0)
    assert.is_true(e.x > 16 * (loaded - 1) - 1, "x " .. e.x)
    assert.is_false(w:query(e:box())[2] ~= nil)
  end)
end)
