-- luacheck: std +busted
-- Storage pools of the core world, pinned by their observable effects: chunk arrays
-- dropped when their cells become uniform (World:stats' bytes), entity slots reused
-- last-freed first with their generations, collider handles and block type lookups.
-- Each test names the condition in csrc/ it pins (found by mutation testing).
local bp = require "blockphys"
local C = require "helpers.compat"

-- the uint16 id array of one 16^3 chunk and its 16-byte header (holders and digest:
-- arrays are shared copy-on-write with snapshots, csrc/core/chunk.c)
local ARRAY = 16 * 16 * 16 * 2 + 16

local function world()
  local w = bp.World()
  w:define_block{ name = "stone" }
  w:define_block{ name = "slab", boxes = { { 0, 0, 0, 1, 0.5, 1 } } }
  return w
end

describe("chunk storage", function()
  -- chunk.c bp_world_set_block: `c->nonair == 0` compacts a chunk cleared to air.
  it("drops a chunk's id array when set_block clears its last block", function()
    local w = world()
    w:set_block(3, 4, 5, "stone")
    local st = w:stats()
    assert.equal(1, st.chunks); assert.equal(1, st.blocks)
    w:set_block(3, 4, 5, "air")
    local after = w:stats()
    assert.equal(st.bytes - ARRAY, after.bytes)
    assert.equal(1, after.chunks); assert.equal(0, after.blocks)
    assert.equal(0, w:get_block(3, 4, 5))
  end)

  -- chunk.c bp_world_set_block: `c->nonair == BP_CHUNK_VOLUME` compacts a full chunk.
  it("drops a chunk's id array when set_block makes it one solid id again", function()
    local w = world()
    w:fill(0, 0, 0, 15, 15, 15, "stone")
    local uniform = w:stats().bytes
    w:set_block(15, 15, 15, "slab")
    assert.equal(uniform + ARRAY, w:stats().bytes)
    w:set_block(15, 15, 15, "stone")
    assert.equal(uniform, w:stats().bytes)
    assert.equal(4096, w:stats().blocks)
  end)

  -- chunk.c chunk_compact: the scan starts at cell 1, so a chunk whose only odd cell
  -- is cell 1 (x = 1, y = 0, z = 0) keeps its array and that cell.
  it("keeps the array of a full chunk whose only odd cell is cell 1", function()
    local w = world()
    w:fill(0, 0, 0, 15, 15, 15, "stone")
    local uniform = w:stats().bytes
    w:set_block(1, 0, 0, "slab")
    assert.equal(w:block_id("slab"), w:get_block(1, 0, 0))
    assert.equal(w:block_id("stone"), w:get_block(0, 0, 0))
    assert.equal(w:block_id("stone"), w:get_block(2, 0, 0))
    assert.equal(uniform + ARRAY, w:stats().bytes)
  end)

  -- chunk.c fill_chunk: a partial fill that makes a chunk uniform compacts it.
  it("drops a chunk's id array when a partial fill makes it uniform", function()
    local w = world()
    w:fill(0, 0, 0, 15, 15, 15, "stone")
    local uniform = w:stats().bytes
    w:fill(0, 0, 0, 15, 7, 15, "slab")
    assert.equal(uniform + ARRAY, w:stats().bytes)
    w:fill(0, 0, 0, 15, 7, 15, "stone")
    assert.equal(uniform, w:stats().bytes)
    w:fill(0, 0, 0, 15, 7, 15, "air")
    w:fill(-3, 8, 0, 15, 15, 20, "air") -- clears the rest, across chunk borders
    assert.equal(uniform, w:stats().bytes)
    assert.equal(0, w:stats().blocks)
  end)
end)

describe("entity pool", function()
  -- world.c bp_grow: `need <= *cap` grows only a full array (16, then doubling): the
  -- 16th spawn fits and allocates nothing; the 17th must allocate.
  it("allocates only when its 16 (then 32) slots are full", function()
    local w = world()
    for i = 1, 15 do w:spawn{ x = i, y = 0, z = 0 } end
    w:_fail_alloc(1)
    w:spawn{ x = 16, y = 0, z = 0 }
    assert.equal(1, w:_fail_alloc(0)) -- the failure never happened
    w:_fail_alloc(1)
    assert.has_error(function() w:spawn{ x = 17, y = 0, z = 0 } end, "not enough memory")
    w:_fail_alloc(0)
    assert.equal(16, w:stats().entities)
  end)
end)

describe("block type registry", function()
  -- world.c bp_block_def_error: `lo <= hi` accepts a box of zero thickness (a flat
  -- pane) and of zero size; only min > max is refused.
  it("accepts boxes of zero thickness, refuses min > max", function()
    local w = world()
    local pane = w:define_block{ name = "pane", boxes = { { 0, 0, 0.5, 1, 1, 0.5 } } }
    local dot = w:define_block{ name = "dot", boxes = { { 0.5, 2, 0.5, 0.5, 2, 0.5 } } }
    assert.same({ { 0, 0, 0.5, 1, 1, 0.5 } }, w:block_info(pane).boxes)
    assert.same({ { 0.5, 2, 0.5, 0.5, 2, 0.5 } }, w:block_info(dot).boxes)
    assert.has_error(function()
      w:define_block{ name = "bad", boxes = { { 0, 0, 0.5, 1, 1, 0.4999 } } }
    end, "define_block: box has min > max (or NaN)")
    assert.is_nil(w:block_id("bad"))
  end)

  -- world.c bp_block_def_error: each of the four X and Z bounds is checked (the
  -- `b->hi[2] > 1` test among them); [0, 1] itself is fine.
  it("refuses a box past any side of its cell on X or Z", function()
    local w = world()
    w:define_block{ name = "full", boxes = { { 0, 0, 0, 1, 1, 1 } } }
    for i, box in ipairs{ { -0.001, 0, 0, 1, 1, 1 }, { 0, 0, 0, 1.001, 1, 1 },
                          { 0, 0, -0.001, 1, 1, 1 }, { 0, 0, 0, 1, 1, 1.001 } } do
      assert.has_error(function() w:define_block{ name = "bad" .. i, boxes = { box } } end,
        "define_block: box leaves its cell on X or Z (coordinates must be in [0, 1])")
    end
    assert.equal(4, w:stats().block_types)
  end)

  -- world.c bp_block_def_error: the ranges are closed, slipperiness [0, 1.5] and
  -- velocity_factor [0, 1] (`>= 0`, `<= 1.5`).
  it("accepts slipperiness 0 and 1.5 and velocity_factor 0, nothing beyond", function()
    local w = world()
    local a = w:define_block{ name = "grip", slipperiness = 0 }
    local b = w:define_block{ name = "glass_ice", slipperiness = 1.5 }
    local c = w:define_block{ name = "glue", velocity_factor = 0 }
    assert.equal(0, w:block_info(a).slipperiness)
    assert.equal(1.5, w:block_info(b).slipperiness)
    assert.equal(0, w:block_info(c).velocity_factor)
    assert.has_error(function() w:define_block{ name = "x1", slipperiness = -0.001 } end,
      "define_block: slipperiness must be in [0, 1.5]")
    assert.has_error(function() w:define_block{ name = "x2", slipperiness = 1.501 } end,
      "define_block: slipperiness must be in [0, 1.5]")
    assert.has_error(function() w:define_block{ name = "x3", velocity_factor = -0.001 } end,
      "define_block: velocity_factor must be in [0, 1]")
    assert.equal(6, w:stats().block_types)
  end)
end)

describe("collider slots", function()
  -- world.c bp_world_add_collider: the slot freed last is reused first, with its
  -- generation bumped; a new slot starts at generation 1 (`generation = 0` on a grown
  -- array, whose memory is not zeroed). A handle is tag << 48 | generation << 24 | slot,
  -- the tag being the world's own (the Lua state's count of worlds made, mod 2^15; mod
  -- 2^5 where numbers are doubles, Lua 5.1, 5.2 and LuaJIT, so that handles stay below
  -- 2^53). In arithmetic (Lua 5.1 parses no bit operator): the fields never overlap.
  local P24, P48 = 16777216, 281474976710656 -- 2^24, 2^48 (integers where Lua has them)
  local TAGS = C.INTEGERS and 32768 or 32
  local function handle(tag, gen, slot) return tag * P48 + gen * P24 + slot end
  local function tag_of(h) return C.idiv(h, P48) end

  it("reuses the slot freed last with the next generation; new slots start at 1", function()
    local w = world()
    local hs = {}
    for i = 1, 40 do
      hs[i] = w:add_collider(bp.Collider(i, 0, 0, i + 1, 1, 1))
    end
    local tag = tag_of(hs[1])
    for i = 1, 40 do assert.equal(handle(tag, 1, i), hs[i]) end
    w:remove_collider(hs[3]); w:remove_collider(hs[7])
    assert.equal(handle(tag, 2, 7), w:add_collider(bp.Collider(0, 5, 0, 1, 6, 1)))
    assert.equal(handle(tag, 2, 3), w:add_collider(bp.Collider(0, 7, 0, 1, 8, 1)))
    assert.equal(handle(tag, 1, 41), w:add_collider(bp.Collider(0, 9, 0, 1, 10, 1)))
    -- add and remove in turn: one slot, generations counting up, no memory growth
    local bytes = w:stats().bytes
    for g = 1, 200 do
      local h = w:add_collider(bp.Collider(0, 20, 0, 1, 21, 1))
      assert.equal(handle(tag, g, 42), h)
      w:remove_collider(h)
    end
    assert.equal(bytes, w:stats().bytes)
    assert.equal(41, w:stats().colliders)
  end)

  it("retires a slot whose 2^24 - 1 generations are used up, so no old handle returns", function()
    local w = world()
    local first = w:add_collider(bp.Collider(0, 0, 0, 1, 1, 1))
    local tag = tag_of(first)
    local last = w:_reuse_collider(first, P24 - 2) -- generations 2 .. 2^24 - 1
    assert.equal(handle(tag, P24 - 1, 1), last)
    local moved = w:_reuse_collider(last, 1) -- slot 1 is retired: a new slot
    assert.equal(handle(tag, 1, 2), moved)
    for _, old in ipairs{ first, last } do
      assert.has_error(function() w:remove_collider(old) end,
        "bad argument #1 to 'remove_collider' (no such collider (removed, never added, or another world's))")
    end
    w:remove_collider(moved)
    assert.equal(handle(tag, 2, 2), w:add_collider(bp.Collider(0, 0, 0, 1, 1, 1))) -- not slot 1
    assert.equal(1, w:stats().colliders)
  end)

  it("gives each world its own tag, so that another world's handle names nothing", function()
    local w1, w2 = world(), world()
    local h1 = w1:add_collider(bp.Collider(0, 0, 0, 1, 1, 1))
    local h2 = w2:add_collider(bp.Collider(0, 0, 0, 1, 1, 1))
    assert.equal((tag_of(h1) + 1) % TAGS, tag_of(h2)) -- same slot and generation, next tag
    assert.equal(h1 % P48, h2 % P48)
    assert.has_error(function() w2:remove_collider(h1) end,
      "bad argument #1 to 'remove_collider' (no such collider (removed, never added, or another world's))")
    assert.equal(1, w1:stats().colliders)
    assert.equal(1, w2:stats().colliders)
    w2:remove_collider(h2)
    w1:remove_collider(h1)
    -- the tag counts worlds made, mod 2^15 (TAGS): the 32,768th world after w1 shares it
    local tag = tag_of(h1)
    for _ = 1, 32767 - 1 do bp.World() end
    local w = world()
    assert.equal((tag + 32768) % TAGS, tag_of(w:add_collider(bp.Collider(0, 0, 0, 1, 1, 1))))
  end)
end)
