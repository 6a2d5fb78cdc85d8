-- luacheck: std +busted
-- MCEdit files store no connection properties: fences, panes, iron bars, walls
-- and chorus plants join their neighbours as today's game derives them
-- (lua/blockphys/legacy_connect.lua, after FenceBlock, IronBarsBlock, WallBlock
-- and ChorusPlantBlock).
local bp = require "blockphys"
local C = require "helpers.compat"
local D = require "helpers.nbt_doc"

-- An MCEdit document one block high from rows of legacy ids (z = row, x = column);
-- metas (optional) the same shape.
local function mcedit(rows, metas)
  local ids, data = {}, {}
  for z, row in ipairs(rows) do
    for x, id in ipairs(row) do
      ids[#ids + 1] = string.char(id)
      data[#data + 1] = string.char(metas and metas[z][x] or 0)
    end
  end
  local function bytes(name, s) return D.tag(7, name, C.pack(">i4", #s) .. s) end
  return assert(bp.schematic.load(D.comp("Schematic", D.short("Width", #rows[1]),
    D.short("Height", 1), D.short("Length", #rows), D.str("Materials", "Alpha"),
    bytes("Blocks", table.concat(ids)), bytes("Data", table.concat(data)))))
end

-- An MCEdit document from layers of rows (layers[y][z][x]), metadata 0.
local function mcedit_layers(layers)
  local ids = {}
  for _, rows in ipairs(layers) do
    for _, row in ipairs(rows) do
      for _, id in ipairs(row) do ids[#ids + 1] = string.char(id) end
    end
  end
  local cells = table.concat(ids)
  local function bytes(name, s) return D.tag(7, name, C.pack(">i4", #s) .. s) end
  return assert(bp.schematic.load(D.comp("Schematic", D.short("Width", #layers[1][1]),
    D.short("Height", #layers), D.short("Length", #layers[1]), D.str("Materials", "Alpha"),
    bytes("Blocks", cells), bytes("Data", string.rep("\0", #cells)))))
end

local FENCE, NETHER_FENCE, PANE, BARS, WALL = 85, 113, 102, 101, 139
local STONE, GLASS, LEAVES, GATE = 1, 20, 18, 107

describe("legacy connections (MCEdit)", function()
  -- BlockChest.getBoundingBox: a chest beside a chest of the same block reaches their
  -- shared edge (tested north, south, west, east); a chest never joins a trapped chest.
  it("joins a chest to a chest of the same block beside it", function()
    local CHEST, TRAPPED = 54, 146
    local s = mcedit({ { CHEST, CHEST, TRAPPED } }, { { 2, 2, 2 } }) -- all facing north
    assert.equal("minecraft:chest[facing=north,type=left]", s:get(0, 0, 0))  -- partner east
    assert.equal("minecraft:chest[facing=north,type=right]", s:get(1, 0, 0)) -- partner west
    assert.equal("minecraft:trapped_chest[facing=north]", s:get(2, 0, 0))
    local box = bp.minecraft.block_def(s:get(0, 0, 0)).boxes[1]
    assert.same({ 1 / 16, 0, 1 / 16, 1, 14 / 16, 15 / 16 }, box)
    -- a partner in front: the facing turns across the join, the box reaches it
    s = mcedit({ { CHEST }, { CHEST } }, { { 3 }, { 3 } }) -- facing south, stacked along z
    assert.equal("minecraft:chest[facing=east,type=left]", s:get(0, 0, 0))
    assert.same({ 1 / 16, 0, 1 / 16, 15 / 16, 14 / 16, 1 }, bp.minecraft.block_def(s:get(0, 0, 0)).boxes[1])
    assert.same({ 1 / 16, 0, 0, 15 / 16, 14 / 16, 15 / 16 }, bp.minecraft.block_def(s:get(0, 0, 1)).boxes[1])
  end)

  it("joins a line of fences, and the ends only inward", function()
    local s = mcedit{ { FENCE, FENCE, FENCE } }
    assert.equal("minecraft:oak_fence[east=true,north=false,south=false,west=false]", s:get(0, 0, 0))
    assert.equal("minecraft:oak_fence[east=true,north=false,south=false,west=true]", s:get(1, 0, 0))
    assert.equal("minecraft:oak_fence[east=false,north=false,south=false,west=true]", s:get(2, 0, 0))
  end)

  it("joins full blocks but not leaves; wooden and nether brick fences stay apart", function()
    local s = mcedit{ { STONE, FENCE, LEAVES }, { GLASS, NETHER_FENCE, 0 } }
    assert.equal("minecraft:oak_fence[east=false,north=false,south=false,west=true]", s:get(1, 0, 0))
    assert.equal("minecraft:nether_brick_fence[east=false,north=false,south=false,west=true]",
      s:get(1, 0, 1))
  end)

  -- Full faces that are not full boxes: a stair's back (BlockStairs.getBlockFaceShape),
  -- soul sand, snow 8 layers deep. Stair metadata & 3: 0 east, 1 west, 2 south, 3 north.
  it("joins the back of a stair, soul sand and deep snow", function()
    local E = "minecraft:oak_fence[east=true,north=false,south=false,west=false]"
    local NONE = "minecraft:oak_fence[east=false,north=false,south=false,west=false]"
    -- the stair east of the fence faces west: its back is toward the fence
    assert.equal(E, mcedit({ { FENCE, 53 } }, { { 0, 1 } }):get(0, 0, 0))
    assert.equal(NONE, mcedit({ { FENCE, 53 } }, { { 0, 0 } }):get(0, 0, 0)) -- its front
    assert.equal(NONE, mcedit({ { FENCE, 53 } }, { { 0, 3 } }):get(0, 0, 0)) -- its side
    -- upside down too, and for a pane
    assert.equal("minecraft:glass_pane[east=true,north=false,south=false,west=false]",
      mcedit({ { PANE, 53 } }, { { 0, 5 } }):get(0, 0, 0))
    assert.equal(E, mcedit({ { FENCE, 88 } }):get(0, 0, 0)) -- soul sand
    assert.equal(E, mcedit({ { FENCE, 78 } }, { { 0, 7 } }):get(0, 0, 0)) -- snow, 8 layers
    assert.equal(NONE, mcedit({ { FENCE, 78 } }, { { 0, 6 } }):get(0, 0, 0)) -- 7 layers
    -- an inner corner shows two backs: the stair east of the fence faces north and,
    -- with a west-facing stair behind it, turns inner_left (full faces north and
    -- west), so the fence west of it joins it
    local corner = mcedit({ { FENCE, 53 }, { 0, 53 } }, { { 0, 3 }, { 0, 1 } })
    assert.truthy(corner:get(1, 0, 0):find("shape=inner_left", 1, true), corner:get(1, 0, 0))
    assert.equal(E, corner:get(0, 0, 0))
  end)

  it("joins a fence gate only across the join", function()
    -- gate metadata & 3: 0 south, 1 west, 2 north, 3 east (its facing)
    local rows = { { FENCE, GATE, FENCE }, { 0, FENCE, 0 } }
    local across = mcedit(rows, { { 0, 0, 0 }, { 0, 0, 0 } }) -- gate faces south: a gap in x
    assert.equal("minecraft:oak_fence[east=true,north=false,south=false,west=false]", across:get(0, 0, 0))
    assert.equal("minecraft:oak_fence[east=false,north=false,south=false,west=false]", across:get(1, 0, 1))
    local along = mcedit(rows, { { 0, 1, 0 }, { 0, 0, 0 } }) -- faces west: a gap in z
    assert.equal("minecraft:oak_fence[east=false,north=false,south=false,west=false]", along:get(0, 0, 0))
    assert.equal("minecraft:oak_fence[east=false,north=true,south=false,west=false]", along:get(1, 0, 1))
  end)

  it("joins panes, bars and walls to each other but not to fences", function()
    local s = mcedit{ { PANE, BARS, WALL, FENCE } }
    assert.equal("minecraft:glass_pane[east=true,north=false,south=false,west=false]", s:get(0, 0, 0))
    assert.equal("minecraft:iron_bars[east=true,north=false,south=false,west=true]", s:get(1, 0, 0))
    assert.equal("minecraft:cobblestone_wall[east=false,north=false,south=false,up=true,west=true]",
      s:get(2, 0, 0))
  end)

  it("drops a wall's post only where it runs straight on", function()
    local s = mcedit{ { 0, WALL, 0 }, { WALL, WALL, WALL }, { 0, 0, 0 } }
    -- the middle joins three sides: a post; the ends join one: a post
    assert.equal("minecraft:cobblestone_wall[east=true,north=true,south=false,up=true,west=true]",
      s:get(1, 0, 1))
    local line = mcedit{ { WALL, WALL, WALL } }
    assert.equal("minecraft:cobblestone_wall[east=true,north=false,south=false,up=false,west=true]",
      line:get(1, 0, 0))
  end)

  -- StairBlock.getStairsShape. Legacy stair metadata: & 3 facing (0 east, 1 west,
  -- 2 south, 3 north), & 4 the top half. Rows run along x; row 1 is z = 0 (north).
  it("turns stairs into corners with their neighbours of the same half", function()
    local ST = 53
    local function shape_of(s, x, z) return s:get(x, 0, z):match("shape=([%w_]+)") end
    -- a stair facing north with a stair in front of it (north) facing east: outer
    local outer = mcedit({ { 0, ST, 0 }, { 0, ST, 0 } }, { { 0, 0, 0 }, { 0, 3, 0 } })
    assert.equal("minecraft:oak_stairs[facing=north,half=bottom,shape=outer_right]", outer:get(1, 0, 1))
    assert.equal("straight", shape_of(outer, 1, 0)) -- the one in front: nothing across it
    -- facing north with a stair behind it (south) facing west: inner, turning left
    local inner = mcedit({ { 0, ST, 0 }, { 0, ST, 0 } }, { { 0, 3, 0 }, { 0, 1, 0 } })
    assert.equal("inner_left", shape_of(inner, 1, 0))
    -- the same with the halves apart: straight
    local halves = mcedit({ { 0, ST, 0 }, { 0, ST, 0 } }, { { 0, 3, 0 }, { 0, 5, 0 } })
    assert.equal("straight", shape_of(halves, 1, 0))
    -- a flight of stairs side by side facing the same way stays straight
    local flight = mcedit({ { ST, ST, ST } }, { { 3, 3, 3 } })
    for x = 0, 2 do assert.equal("straight", shape_of(flight, x, 0)) end
  end)


  -- BlockChest.getBoundingBox tests north, then south, then west, then east: a chest
  -- with partners on two sides joins the first of them.
  it("joins a chest with partners on two sides to the first in north, south, west, east", function()
    local CHEST = 54
    -- three along z, all facing north (metadata 2): the middle one joins north, which
    -- its facing runs across, so it turns west with type=left (left joins clockwise)
    local column = mcedit({ { CHEST }, { CHEST }, { CHEST } }, { { 2 }, { 2 }, { 2 } })
    assert.equal("minecraft:chest[facing=west,type=left]", column:get(0, 0, 1))
    -- three along x facing north: the middle one joins west, a right half
    local row = mcedit({ { CHEST, CHEST, CHEST } }, { { 2, 2, 2 } })
    assert.equal("minecraft:chest[facing=north,type=right]", row:get(1, 0, 0))
  end)

  -- FenceBlock: wooden fences of every wood join each other; a fence joins every
  -- wooden fence gate across the join (legacy 107 and 183..187 gates, 85 and 188..192
  -- fences).
  it("joins fences of every wood, and every wooden fence gate across the join", function()
    local E = "minecraft:oak_fence[east=true,north=false,south=false,west=false]"
    for id = 188, 192 do
      local s = mcedit{ { FENCE, id } }
      assert.equal(E, s:get(0, 0, 0), tostring(id))
      assert.matches("^minecraft:[%a_]+_fence%[east=false,north=false,south=false,west=true%]$", s:get(1, 0, 0))
    end
    for id = 183, 187 do -- gates facing south (metadata 0): they run along x, across the join
      assert.equal(E, mcedit{ { FENCE, id } }:get(0, 0, 0), tostring(id))
    end
  end)

  -- FenceBlock.isExceptionForConnection: full blocks a fence never joins; a fence joins
  -- only a sturdy (full) face, which neither a bottom slab's side nor water has.
  it("does not join carved pumpkins, shulker boxes, slabs or water", function()
    local NONE = "minecraft:oak_fence[east=false,north=false,south=false,west=false]"
    for _, id in ipairs{ 86, 219, 234, 44, 9 } do -- pumpkin, white and black shulker boxes
      assert.equal(NONE, mcedit{ { FENCE, id } }:get(0, 0, 0), tostring(id))
    end
  end)

  -- IronBarsBlock.attachsTo: panes and bars join panes, bars, walls and full faces,
  -- never a fence gate (only fences and walls join gates).
  it("does not join a pane to a fence gate across it", function()
    local s = mcedit{ { PANE, GATE } } -- the gate faces south: it runs along x
    assert.equal("minecraft:glass_pane[east=false,north=false,south=false,west=false]", s:get(0, 0, 0))
  end)

  -- BlockStairs.getBlockFaceShape: an inner_right corner shows full faces toward its
  -- facing and the side clockwise of it.
  it("joins a fence to the east back of an inner_right stair facing north", function()
    local ST = 53
    -- the stair at x = 1 faces north (3) with one facing east (0) behind it: inner_right
    local s = mcedit({ { 0, ST, FENCE }, { 0, ST, 0 } }, { { 0, 3, 0 }, { 0, 0, 0 } })
    assert.equal("minecraft:oak_stairs[facing=north,half=bottom,shape=inner_right]", s:get(1, 0, 0))
    assert.equal("minecraft:oak_fence[east=false,north=false,south=false,west=true]", s:get(2, 0, 0))
  end)

  -- StairBlock.canTakeShape: a corner is refused when the stair on the side it turns
  -- toward faces the same way in the same half; one of the other half does not refuse.
  it("keeps a stair straight where a same-facing stair of its half blocks the corner", function()
    local ST = 53
    local function shape_at(rows, metas, x, z) return mcedit(rows, metas):get(x, 0, z):match("shape=([%w_]+)") end
    -- outer: the stair at (1, 1) faces north with one facing east in front; the stair
    -- west of it (0, 1) faces north: bottom half blocks the corner, top half does not
    local outer = { { 0, ST, 0 }, { ST, ST, 0 } }
    assert.equal("straight", shape_at(outer, { { 0, 0, 0 }, { 3, 3, 0 } }, 1, 1))
    assert.equal("outer_right", shape_at(outer, { { 0, 0, 0 }, { 7, 3, 0 } }, 1, 1))
    -- inner: the stair at (1, 0) faces north with one facing west behind it; a
    -- north-facing stair west of it (0, 0) blocks the corner, one east of it does not
    assert.equal("straight", shape_at({ { ST, ST, 0 }, { 0, ST, 0 } }, { { 3, 3, 0 }, { 0, 1, 0 } }, 1, 0))
    assert.equal("inner_left", shape_at({ { 0, ST, ST }, { 0, ST, 0 } }, { { 0, 3, 3 }, { 0, 1, 0 } }, 1, 0))
  end)

  it("joins the back of every kind of legacy stairs", function()
    for _, id in ipairs{ 53, 67, 108, 109, 114, 128, 134, 135, 136, 156, 163, 164, 180, 203 } do
      -- the stair east of the fence faces west (1): its back is toward the fence
      assert.equal("minecraft:oak_fence[east=true,north=false,south=false,west=false]",
        mcedit({ { FENCE, id } }, { { 0, 1 } }):get(0, 0, 0), tostring(id))
    end
    local inner = mcedit({ { 0, 203, 0 }, { 0, 203, 0 } }, { { 0, 3, 0 }, { 0, 1, 0 } })
    assert.equal("minecraft:purpur_stairs[facing=north,half=bottom,shape=inner_left]", inner:get(1, 0, 0))
  end)

  -- WallBlock: the post drops only where the wall runs straight on two opposite sides.
  it("keeps a wall's post where it joins three sides", function()
    local s = mcedit{ { WALL, WALL, WALL }, { 0, WALL, 0 } }
    assert.equal("minecraft:cobblestone_wall[east=true,north=false,south=true,up=true,west=true]",
      s:get(1, 0, 0))
    s = mcedit{ { 0, WALL, 0 }, { WALL, WALL, 0 }, { 0, WALL, 0 } }
    assert.equal("minecraft:cobblestone_wall[east=false,north=true,south=true,up=true,west=true]",
      s:get(1, 0, 1))
  end)

  -- The loader caches a connecting cell's state by (id, metadata, code): stained
  -- glass panes of two colours with different connections keep their own states.
  it("keeps apart stained glass panes of different colours and connections", function()
    local STAINED = 160 -- metadata: the colour (0 white, 1 orange)
    local s = mcedit({ { 0, STAINED, 0, 0, STAINED, 0 },
                       { STAINED, STAINED, STAINED, 0, STAINED, STAINED },
                       { 0, STAINED, 0, 0, STAINED, 0 } },
                     { { 0, 0, 0, 0, 0, 0 }, { 0, 0, 0, 0, 1, 0 }, { 0, 0, 0, 0, 0, 0 } })
    assert.equal("minecraft:white_stained_glass_pane[east=true,north=true,south=true,west=true]", s:get(1, 0, 1))
    assert.equal("minecraft:orange_stained_glass_pane[east=true,north=true,south=true,west=false]",
      s:get(4, 0, 1))
    -- and of different colours with the same connections
    s = mcedit({ { STAINED, STAINED, 0, STAINED, STAINED } }, { { 0, 0, 0, 1, 1 } })
    assert.equal("minecraft:white_stained_glass_pane[east=true,north=false,south=false,west=false]", s:get(0, 0, 0))
    assert.equal("minecraft:orange_stained_glass_pane[east=true,north=false,south=false,west=false]", s:get(3, 0, 0))
  end)

  -- BlockChorusPlant.getActualState: chorus plants and flowers join on every side,
  -- end stone only below; outside the file nothing joins.
  it("joins chorus plants to plants and flowers on six sides and to end stone below", function()
    local PLANT, FLOWER, END = 199, 200, 121
    local s = mcedit_layers{
      { { END, END, END } },          -- y = 0
      { { PLANT, 0, END } },          -- y = 1: the stem's foot; end stone beside it
      { { PLANT, PLANT, PLANT } },    -- y = 2: a branch east, its end on end stone
      { { FLOWER, END, PLANT } },     -- y = 3: end stone beside the top plant
    }
    local function state(down, east, north, south, up, west)
      return ("minecraft:chorus_plant[down=%s,east=%s,north=%s,south=%s,up=%s,west=%s]")
        :format(tostring(down), tostring(east), tostring(north), tostring(south), tostring(up),
          tostring(west))
    end
    assert.equal(state(true, false, false, false, true, false), s:get(0, 1, 0))
    assert.equal(state(true, true, false, false, true, false), s:get(0, 2, 0))
    assert.equal(state(false, true, false, false, false, true), s:get(1, 2, 0))
    assert.equal(state(true, false, false, false, true, true), s:get(2, 2, 0)) -- end stone below
    assert.equal(state(true, false, false, false, false, false), s:get(2, 3, 0)) -- not beside
    -- the stem's state has its arms: the centre, down and up (PipeBlock, 0.3125 apothem)
    local boxes = bp.minecraft.block_def(s:get(0, 1, 0)).boxes
    assert.equal(3, #boxes)
    s = mcedit{ { PLANT }, { PLANT }, { FLOWER } } -- a line along z, alone in its layer
    assert.equal(state(false, false, false, true, false, false), s:get(0, 0, 0))
    assert.equal(state(false, false, true, true, false, false), s:get(0, 0, 1))
  end)

  it("stops a walker at a fence line it would have passed as bare posts", function()
    local s = mcedit{ { FENCE, FENCE, FENCE, FENCE, FENCE } }
    local w = bp.World()
    w:define_block{ name = "stone" }
    w:fill(-2, -1, -3, 7, -1, 3, "stone")
    w:paste(s, 0, 0, 0)
    local e = w:spawn{ x = 2.0, y = 0, z = -1.5 } -- on the seam between two posts
    e.forward = 1 -- toward +z, across the line at z = 0.5
    for _ = 1, 40 do
      w:step()
      assert.same({}, w:boxes_in(e:box()))
    end
    assert.is_true(e.z < 0.5, tostring(e.z))
  end)
end)
