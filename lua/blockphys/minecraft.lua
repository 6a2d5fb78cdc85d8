--- Collision shapes of vanilla Minecraft (Java edition) block states.
--
-- Maps a block state string such as
-- `"minecraft:oak_stairs[facing=east,half=bottom,shape=straight]"` to a block
-- definition for `world:define_block`. Only *collision* matters here: blocks
-- you walk through get no boxes even when they have an outline, and the few
-- shapes that vanilla makes depend on the entity (scaffolding, powder snow)
-- are approximated by their usual case.
--
-- Source: vanilla block shapes as documented on the Minecraft Wiki
-- (minecraft.wiki) block pages and, for shapes that depend on the state
-- (candles, beds, cauldrons, pistons, grindstones, bells, cocoa, amethyst,
-- dripstone, dripleaves, chorus plants), the game's block classes; our own
-- transcription. Shapes are written in
-- sixteenths of a block (the wiki's "pixels"), so every coordinate is exact
-- in binary floating point and specs may compare with `==`.
--
-- Conventions: block-local coordinates, (0,0,0) is the cell's minimum
-- corner; Y up; north = -Z, south = +Z, west = -X, east = +X. A box is
-- `{x1, y1, z1, x2, y2, z2}` with min <= max; fences, fence gates and walls
-- reach y = 1.5.
--
-- @module blockphys.minecraft

local minecraft = {}

local concat, sort = table.concat, table.sort
local format = string.format

---------------------------------------------------------------------------
-- State strings
---------------------------------------------------------------------------

--- Splits a block state string into its name and properties.
--
-- Accepts `name` or `name[key=value,...]`; the name is returned as written
-- (with or without namespace). Property order does not matter.
-- @tparam string s e.g. `"minecraft:oak_stairs[facing=east,half=bottom]"`
-- @treturn[1] string the block name, e.g. `"minecraft:oak_stairs"`
-- @treturn[1] table properties, e.g. `{facing = "east", half = "bottom"}`
-- @return[2] nil
-- @treturn[2] string message: `"bad block state ..."` for a malformed string,
--   `"block state must be a string, got T"` for another type (no error is raised)
-- Source: the block state syntax of today's Minecraft (`name[key=value,...]`);
-- the parser is our own.
function minecraft.parse_state(s)
  if type(s) ~= "string" then
    return nil, "block state must be a string, got " .. type(s)
  end
  local name, rest = s:match("^([%w_%-%.:/]+)(.*)$")
  if not name then
    return nil, format("bad block state %q: missing or invalid name", s)
  end
  local props = {}
  if rest == "" then return name, props end
  local body = rest:match("^%[(.*)%]$")
  if not body then
    return nil, format("bad block state %q: expected [key=value,...] after the name", s)
  end
  if body == "" then return name, props end
  -- Appending a comma lets one pattern consume every pair; anything the
  -- pattern cannot consume is reported instead of silently dropped.
  local pos = 1
  body = body .. ","
  while pos <= #body do
    local k, v, nxt = body:match("^([%w_%-%.]+)=([%w_%-%.]*),()", pos)
    if not k then
      return nil, format("bad block state %q: malformed property list", s)
    end
    if props[k] ~= nil then
      return nil, format("bad block state %q: property %q repeated", s, k)
    end
    props[k] = v
    pos = nxt
  end
  return name, props
end

-- Adds the default namespace so "stone" and "minecraft:stone" are one block.
local function full_name(name)
  if name:find(":", 1, true) then return name end
  return "minecraft:" .. name
end

-- The namespace-less name of a vanilla block ("oak_fence" for "minecraft:oak_fence"
-- or "oak_fence"), nil for another namespace.
local function vanilla_base(name)
  return full_name(name):match("^minecraft:(.+)$")
end

---------------------------------------------------------------------------
-- Box helpers
---------------------------------------------------------------------------

-- A box from coordinates in sixteenths of a block.
local function px(x1, y1, z1, x2, y2, z2)
  return { x1 / 16, y1 / 16, z1 / 16, x2 / 16, y2 / 16, z2 / 16 }
end

local FULL = { 0, 0, 0, 1, 1, 1 }

-- Quarter turns clockwise (seen from above) that bring north onto each
-- horizontal direction. Shapes with a facing are written once for north.
local TURNS = { north = 0, east = 1, south = 2, west = 3 }

-- One quarter turn clockwise about the cell's vertical centre line:
-- the north edge (z = 0) goes to the east edge (x = 1).
local function turn_once(b)
  return { 1 - b[6], b[2], b[1], 1 - b[3], b[5], b[4] }
end

local function rotate(boxes, facing)
  local n = TURNS[facing] or 0
  local out = {}
  for i, b in ipairs(boxes) do
    for _ = 1, n do b = turn_once(b) end
    out[i] = b
  end
  return out
end

-- Copies boxes so callers can never modify the tables shared by this
-- module; every coordinate becomes a float so all boxes look alike.
local function copy_boxes(boxes)
  local out = {}
  for i, b in ipairs(boxes) do
    out[i] = { b[1] + 0.0, b[2] + 0.0, b[3] + 0.0, b[4] + 0.0, b[5] + 0.0, b[6] + 0.0 }
  end
  return out
end

-- Directions to the left and right of a horizontal facing (as seen by
-- someone looking that way).
local LEFT = { north = "west", west = "south", south = "east", east = "north" }
local RIGHT = { north = "east", east = "south", south = "west", west = "north" }
local OPPOSITE = { north = "south", south = "north", east = "west", west = "east", up = "down", down = "up" }

---------------------------------------------------------------------------
-- Property schemas: which properties matter for collision, their allowed
-- values and defaults. Unlisted properties (waterlogged, powered, ...) are
-- ignored, so states that collide alike share one block definition.
---------------------------------------------------------------------------

local function set(...)
  local t = {}
  for _, v in ipairs({ ... }) do t[v] = true end
  return t
end

local FACING4 = set("north", "east", "south", "west")
local FACING6 = set("north", "east", "south", "west", "up", "down")
local BOOL = set("true", "false")
local HALF = set("bottom", "top")

---------------------------------------------------------------------------
-- Shape families. Each has `props` = list of {key, default, allowed} and
-- `build(p)` returning the boxes for resolved properties `p`.
---------------------------------------------------------------------------

local families = {}

families.slab = {
  props = { { "type", "bottom", set("bottom", "top", "double") } },
  build = function(p)
    if p.type == "top" then return { { 0, 0.5, 0, 1, 1, 1 } } end
    if p.type == "double" then return { FULL } end
    return { { 0, 0, 0, 1, 0.5, 1 } }
  end,
}

-- Stairs: a half slab plus the upper (or, upside down, lower) half split
-- into quarter columns. Quarters are named by the two directions of their
-- corner; "straight" fills the two quarters on the facing side.
local QUARTER = {
  ["north west"] = { 0, 0, 0.5, 0.5 }, ["north east"] = { 0.5, 0, 1, 0.5 },
  ["south west"] = { 0, 0.5, 0.5, 1 }, ["south east"] = { 0.5, 0.5, 1, 1 },
}

local function quarter_key(a, b)
  -- Corner keys are written north/south first.
  if a == "east" or a == "west" then a, b = b, a end
  return a .. " " .. b
end

-- The half of the cell on side `dir`, as x1, z1, x2, z2.
local HALF_SIDE = {
  north = { 0, 0, 1, 0.5 }, south = { 0, 0.5, 1, 1 },
  west = { 0, 0, 0.5, 1 }, east = { 0.5, 0, 1, 1 },
}

families.stairs = {
  props = {
    { "facing", "north", FACING4 },
    { "half", "bottom", HALF },
    { "shape", "straight", set("straight", "inner_left", "inner_right", "outer_left", "outer_right") },
  },
  build = function(p)
    local f = p.facing
    local slab_y1, slab_y2, step_y1, step_y2 = 0, 0.5, 0.5, 1
    if p.half == "top" then slab_y1, slab_y2, step_y1, step_y2 = 0.5, 1, 0, 0.5 end
    local boxes = { { 0, slab_y1, 0, 1, slab_y2, 1 } }
    local function add(r) boxes[#boxes + 1] = { r[1], step_y1, r[2], r[3], step_y2, r[4] } end
    local shape = p.shape
    if shape == "outer_left" then
      add(QUARTER[quarter_key(f, LEFT[f])])
    elseif shape == "outer_right" then
      add(QUARTER[quarter_key(f, RIGHT[f])])
    else
      add(HALF_SIDE[f])
      -- Inner corners add the quarter behind the facing on the named side.
      local back = LEFT[LEFT[f]]
      if shape == "inner_left" then add(QUARTER[quarter_key(back, LEFT[f])]) end
      if shape == "inner_right" then add(QUARTER[quarter_key(back, RIGHT[f])]) end
    end
    return boxes
  end,
}

-- Connection properties of fences, panes and walls. Old (pre-1.16) walls
-- used true/false; newer ones none/low/tall. Any of these counts.
local CONNECT = set("true", "false", "none", "low", "tall")
local function connected(v) return v == "true" or v == "low" or v == "tall" end

local SIDES = { "north", "east", "south", "west" }

-- Arm of a cross-shaped block reaching from side `dir` across the centre to
-- the far side of its own width, `lo`..`hi` wide, 0..`h` high, as the game's
-- CrossCollisionBlock and WallBlock build them. Arms overlap the post; the
-- union is what collides, and it matters without a post: a wall with one arm
-- (up=false, which only files and commands make) reaches 11/16, not 8/16.
local function arm(dir, lo, hi, h)
  if dir == "north" then return { lo, 0, 0, hi, h, hi } end
  if dir == "south" then return { lo, 0, lo, hi, h, 1 } end
  if dir == "west" then return { 0, 0, lo, hi, h, hi } end
  return { lo, 0, lo, 1, h, hi }
end

local function cross_props(extra)
  local props = {}
  for i, d in ipairs(SIDES) do props[i] = { d, "false", CONNECT } end
  if extra then props[#props + 1] = extra end
  return props
end

-- post_lo..post_hi: post width; arm_lo..arm_hi: arm width; h: height.
local function cross_family(post_lo, post_hi, arm_lo, arm_hi, h, has_up)
  return {
    props = cross_props(has_up and { "up", "true", BOOL } or nil),
    build = function(p)
      local boxes = {}
      if not has_up or p.up == "true" then
        boxes[1] = { post_lo, 0, post_lo, post_hi, h, post_hi }
      end
      for _, d in ipairs(SIDES) do
        if connected(p[d]) then boxes[#boxes + 1] = arm(d, arm_lo, arm_hi, h) end
      end
      return boxes
    end,
  }
end

-- Fences: 4-wide post, arms as wide as the post, 24 tall (1.5 blocks) so
-- they cannot be jumped.
families.fence = cross_family(6 / 16, 10 / 16, 6 / 16, 10 / 16, 1.5, false)
-- Glass panes and iron bars: 2-wide core and arms, one block tall.
families.pane = cross_family(7 / 16, 9 / 16, 7 / 16, 9 / 16, 1, false)
-- Walls: 8-wide post (only when up=true), 6-wide arms; both low and tall
-- arms collide 1.5 high.
families.wall = cross_family(4 / 16, 12 / 16, 5 / 16, 11 / 16, 1.5, true)

families.fence_gate = {
  props = { { "facing", "north", FACING4 }, { "open", "false", BOOL } },
  build = function(p)
    if p.open == "true" then return {} end
    if p.facing == "north" or p.facing == "south" then
      return { { 0, 0, 6 / 16, 1, 1.5, 10 / 16 } }
    end
    return { { 6 / 16, 0, 0, 10 / 16, 1.5, 1 } }
  end,
}

-- Facing blocks whose north shape sits against the south edge: the facing
-- points away from the wall the block hangs on.
local THIN_SOUTH = px(0, 0, 13, 16, 16, 16)

families.ladder = {
  props = { { "facing", "north", FACING4 } },
  build = function(p) return rotate({ THIN_SOUTH }, p.facing) end,
}

-- Doors: 3/16 thick. Closed, the panel lies on the edge opposite the
-- facing; open, it swings against the side of its hinge.
families.door = {
  props = {
    { "facing", "north", FACING4 }, { "open", "false", BOOL },
    { "hinge", "left", set("left", "right") },
  },
  build = function(p)
    local north_frame
    if p.open ~= "true" then
      north_frame = THIN_SOUTH
    elseif p.hinge == "right" then
      north_frame = px(13, 0, 0, 16, 16, 16) -- east side, the right of north
    else
      north_frame = px(0, 0, 0, 3, 16, 16)
    end
    return rotate({ north_frame }, p.facing)
  end,
}

-- Trapdoors: a 3/16 plate at the bottom or top of the cell when closed;
-- open, standing against the edge opposite the facing.
families.trapdoor = {
  props = { { "facing", "north", FACING4 }, { "half", "bottom", HALF }, { "open", "false", BOOL } },
  build = function(p)
    if p.open == "true" then return rotate({ THIN_SOUTH }, p.facing) end
    if p.half == "top" then return { px(0, 13, 0, 16, 16, 16) } end
    return { px(0, 0, 0, 16, 3, 16) }
  end,
}

families.carpet = { props = {}, build = function() return { px(0, 0, 0, 16, 1, 16) } end }

-- Snow layers: vanilla collides one layer lower than it draws, so a single
-- layer can be walked through and eight layers are 7/8 high.
families.snow = {
  props = { { "layers", "1", set("1", "2", "3", "4", "5", "6", "7", "8") } },
  build = function(p)
    local layers = tonumber(p.layers)
    if layers <= 1 then return {} end
    return { { 0, 0, 0, 1, (layers - 1) / 8, 1 } }
  end,
}

families.head = { props = {}, build = function() return { px(4, 0, 4, 12, 8, 12) } end }
families.piglin_head = { props = {}, build = function() return { px(3, 0, 3, 13, 8, 13) } end }
-- Wall heads: north-facing heads hang on a wall to their south.
families.wall_head = {
  props = { { "facing", "north", FACING4 } },
  build = function(p) return rotate({ px(4, 4, 8, 12, 12, 16) }, p.facing) end,
}
families.piglin_wall_head = {
  props = { { "facing", "north", FACING4 } },
  build = function(p) return rotate({ px(3, 4, 8, 13, 12, 16) }, p.facing) end,
}

-- Thin rods (end rod, lightning rod): 4/16 thick along the facing axis.
local function rod_along(axis, lo, hi)
  if axis == "x" then return { 0, lo, lo, 1, hi, hi } end
  if axis == "z" then return { lo, lo, 0, hi, hi, 1 } end
  return { lo, 0, lo, hi, 1, hi }
end
local AXIS_OF = { north = "z", south = "z", east = "x", west = "x", up = "y", down = "y" }

families.rod = {
  props = { { "facing", "up", FACING6 } },
  build = function(p) return { rod_along(AXIS_OF[p.facing], 6 / 16, 10 / 16) } end,
}
families.chain = {
  props = { { "axis", "y", set("x", "y", "z") } },
  build = function(p) return { rod_along(p.axis, 6.5 / 16, 9.5 / 16) } end,
}

families.lantern = {
  props = { { "hanging", "false", BOOL } },
  build = function(p)
    if p.hanging == "true" then
      return { px(5, 1, 5, 11, 8, 11), px(6, 8, 6, 10, 10, 10) }
    end
    return { px(5, 0, 5, 11, 7, 11), px(6, 7, 6, 10, 9, 10) }
  end,
}

-- Chests: 14/16 wide and 14/16 high; half of a double chest reaches the
-- edge it shares with its other half (to the right of the facing for
-- type=left, to the left for type=right, as the chest sees it).
families.chest = {
  props = { { "facing", "north", FACING4 }, { "type", "single", set("single", "left", "right") } },
  build = function(p)
    -- North frame: "left" halves join toward east, "right" halves toward west.
    if p.type == "left" then return rotate({ px(1, 0, 1, 16, 14, 15) }, p.facing) end
    if p.type == "right" then return rotate({ px(0, 0, 1, 15, 14, 15) }, p.facing) end
    return { px(1, 0, 1, 15, 14, 15) }
  end,
}

-- Shelves (ShelfBlock): a back panel with a lip at the top and at the bottom,
-- north frame (the facing points away from the panel).
families.shelf = {
  props = { { "facing", "north", FACING4 } },
  build = function(p)
    return rotate({ px(0, 0, 13, 16, 16, 16), px(0, 12, 11, 16, 16, 13), px(0, 0, 11, 16, 4, 13) },
      p.facing)
  end,
}

-- The hanging pieces of pale moss carpet (bottom=false) are walked through.
families.pale_moss_carpet = {
  props = { { "bottom", "true", BOOL } },
  build = function(p) return p.bottom == "true" and { px(0, 0, 0, 16, 1, 16) } or {} end,
}

families.cake = {
  props = { { "bites", "0", set("0", "1", "2", "3", "4", "5", "6") } },
  build = function(p) return { px(1 + 2 * tonumber(p.bites), 0, 1, 15, 8, 15) } end,
}

-- Anvils: base, two-step neck and a top whose long side runs across the
-- facing (the top of a north-facing anvil spans the full Z).
families.anvil = {
  props = { { "facing", "north", FACING4 } },
  build = function(p)
    local boxes = {
      px(2, 0, 2, 14, 4, 14), px(4, 4, 3, 12, 5, 13),
      px(6, 5, 4, 10, 10, 12), px(3, 10, 0, 13, 16, 16),
    }
    if p.facing == "east" or p.facing == "west" then return rotate(boxes, "east") end
    return boxes
  end,
}

-- Hoppers: a bowl (floor at 11/16, 2/16 rim), a funnel and a spout that
-- points down or sideways.
local HOPPER_SPOUT = {
  down = px(6, 0, 6, 10, 4, 10),
  north = px(6, 4, 0, 10, 8, 4), south = px(6, 4, 12, 10, 8, 16),
  west = px(0, 4, 6, 4, 8, 10), east = px(12, 4, 6, 16, 8, 10),
}
families.hopper = {
  props = { { "facing", "down", set("down", "north", "east", "south", "west") } },
  build = function(p)
    return {
      px(0, 10, 0, 16, 11, 16),
      px(0, 11, 0, 2, 16, 16), px(14, 11, 0, 16, 16, 16),
      px(2, 11, 0, 14, 16, 2), px(2, 11, 14, 14, 16, 16),
      px(4, 4, 4, 12, 10, 12),
      HOPPER_SPOUT[p.facing],
    }
  end,
}

-- Cauldron-like blocks: a floor and four 2/16 walls, open on top.
local function basin(floor)
  return {
    px(0, 0, 0, 16, floor, 16),
    px(0, floor, 0, 2, 16, 16), px(14, floor, 0, 16, 16, 16),
    px(2, floor, 0, 14, 16, 2), px(2, floor, 14, 14, 16, 16),
  }
end

-- Cauldrons: a basin whose 1/16 floor (3/16 up) stands on four L-shaped
-- corner legs 3/16 high.
local function cauldron()
  local boxes = basin(4)
  boxes[1] = px(0, 3, 0, 16, 4, 16)
  local legs = {
    px(0, 0, 0, 4, 3, 2), px(0, 0, 2, 2, 3, 4), px(12, 0, 0, 16, 3, 2), px(14, 0, 2, 16, 3, 4),
    px(0, 0, 14, 4, 3, 16), px(0, 0, 12, 2, 3, 14), px(12, 0, 14, 16, 3, 16), px(14, 0, 12, 16, 3, 14),
  }
  for _, b in ipairs(legs) do boxes[#boxes + 1] = b end
  return boxes
end

families.end_portal_frame = {
  props = { { "eye", "false", BOOL } },
  build = function(p)
    local boxes = { px(0, 0, 0, 16, 13, 16) }
    if p.eye == "true" then boxes[2] = px(4, 13, 4, 12, 16, 12) end
    return boxes
  end,
}

-- A block counted 1 to 4 by property `key` (candles, sea pickles, turtle eggs):
-- one box per count.
local COUNTS = set("1", "2", "3", "4")
local function counted(key, boxes)
  return {
    props = { { key, "1", COUNTS } },
    build = function(p) return { boxes[tonumber(p[key])] } end,
  }
end

families.candle = counted("candles", {
  px(7, 0, 7, 9, 6, 9), px(5, 0, 6, 11, 6, 9), px(5, 0, 6, 10, 6, 11), px(5, 0, 5, 11, 6, 10),
})

-- Beds: a 6/16 slab 3/16 up on two 3/16 legs at the bed's outer end (the
-- head's end toward the facing, the foot's away from it).
families.bed = {
  props = { { "facing", "north", FACING4 }, { "part", "foot", set("foot", "head") } },
  build = function(p)
    -- North frame: legs at the north corners.
    local boxes = { px(0, 3, 0, 16, 9, 16), px(0, 0, 0, 3, 3, 3), px(13, 0, 0, 16, 3, 3) }
    local outer = p.part == "head" and p.facing or OPPOSITE[p.facing]
    return rotate(boxes, outer)
  end,
}

-- Straw beds (StrawBedBlock): a 4/16 mattress, and on the head half a pillow
-- 5/16 high over the half toward the facing.
families.straw_bed = {
  props = { { "facing", "north", FACING4 }, { "part", "foot", set("foot", "head") } },
  build = function(p)
    if p.part ~= "head" then return { px(0, 0, 0, 16, 4, 16) } end
    return rotate({ px(0, 0, 0, 16, 4, 16), px(0, 0, 0, 16, 5, 8) }, p.facing)
  end,
}

-- Wall hanging signs: only the plank along the top collides
-- (WallHangingSignBlock); the sign itself and ceiling hanging signs do not.
families.wall_hanging_sign = {
  props = { { "facing", "north", FACING4 } },
  build = function(p)
    if p.facing == "north" or p.facing == "south" then return { px(0, 14, 6, 16, 16, 10) } end
    return { px(6, 14, 0, 10, 16, 16) }
  end,
}

-- Shelf mushrooms (ShelfMushroomBlock): a cap and a stem growing out of the wall
-- behind them, larger at age 1; north frame (the facing points away from the wall).
families.shelf_mushroom = {
  props = { { "facing", "north", FACING4 }, { "age", "0", set("0", "1") } },
  build = function(p)
    if p.age == "1" then
      return rotate({ px(1, 8, 6, 15, 11, 16), px(4, 6, 10, 12, 8, 16) }, p.facing)
    end
    return rotate({ px(3, 9, 9, 13, 11, 16), px(5, 8, 12, 11, 9, 16) }, p.facing)
  end,
}

-- Pieces that stand on the floor, hang from the ceiling or sit on a wall
-- ("face"), written for the wall case facing north.
local FACE = set("floor", "wall", "ceiling")

-- Grindstones: a wheel between two legs, each a post and a pivot.
local GRINDSTONE = {
  floor = { px(2, 0, 6, 4, 7, 10), px(12, 0, 6, 14, 7, 10), px(2, 7, 5, 4, 13, 11),
            px(12, 7, 5, 14, 13, 11), px(4, 4, 2, 12, 16, 14) },
  ceiling = { px(2, 9, 6, 4, 16, 10), px(12, 9, 6, 14, 16, 10), px(2, 3, 5, 4, 9, 11),
              px(12, 3, 5, 14, 9, 11), px(4, 0, 2, 12, 12, 14) },
  wall = { px(2, 6, 7, 4, 10, 16), px(12, 6, 7, 14, 10, 16), px(2, 5, 3, 4, 11, 9),
           px(12, 5, 3, 14, 11, 9), px(4, 2, 0, 12, 14, 12) },
}
families.grindstone = {
  props = { { "face", "wall", FACE }, { "facing", "north", FACING4 } },
  build = function(p)
    if p.face ~= "wall" then -- on floor and ceiling only the axis matters
      return rotate(GRINDSTONE[p.face], AXIS_OF[p.facing] == "x" and "east" or "north")
    end
    return rotate(GRINDSTONE.wall, p.facing)
  end,
}

-- Bells: the bell (two boxes) and the bar or frame it hangs from.
local BELL = { px(4, 4, 4, 12, 6, 12), px(5, 6, 5, 11, 13, 11) }
families.bell = {
  props = {
    { "attachment", "floor", set("floor", "ceiling", "single_wall", "double_wall") },
    { "facing", "north", FACING4 },
  },
  build = function(p)
    local ns = AXIS_OF[p.facing] == "z"
    if p.attachment == "floor" then -- a frame across the facing axis, no bell box
      return { ns and px(0, 0, 4, 16, 16, 12) or px(4, 0, 0, 12, 16, 16) }
    end
    local bar
    if p.attachment == "ceiling" then
      bar = px(7, 13, 7, 9, 16, 9)
    elseif p.attachment == "double_wall" then
      bar = ns and px(7, 13, 0, 9, 15, 16) or px(0, 13, 7, 16, 15, 9)
    else -- single_wall, north frame: the bar reaches the north edge
      bar = rotate({ px(7, 13, 0, 9, 15, 13) }, p.facing)[1]
    end
    return { BELL[1], BELL[2], bar }
  end,
}

-- Cocoa pods hang on the log in the facing direction and grow with age.
local COCOA = {
  ["0"] = px(6, 7, 1, 10, 12, 5), ["1"] = px(5, 5, 1, 11, 12, 7), ["2"] = px(4, 3, 1, 12, 12, 9),
}
families.cocoa = {
  props = { { "age", "0", set("0", "1", "2") }, { "facing", "north", FACING4 } },
  build = function(p) return rotate({ COCOA[p.age] }, p.facing) end,
}

-- A box grown from the face opposite `facing` (the face it is attached to):
-- height h out of that face, inset o on the other two axes (sixteenths).
local function grown(facing, h, o)
  if facing == "up" then return px(o, 0, o, 16 - o, h, 16 - o) end
  if facing == "down" then return px(o, 16 - h, o, 16 - o, 16, 16 - o) end
  return rotate({ px(o, o, 16 - h, 16 - o, 16 - o, 16) }, facing)[1]
end

-- Amethyst buds and clusters: {height, inset} by block.
local AMETHYST = {
  amethyst_cluster = { 7, 3 }, large_amethyst_bud = { 5, 3 },
  medium_amethyst_bud = { 4, 3 }, small_amethyst_bud = { 3, 4 },
}
for name, size in pairs(AMETHYST) do
  families[name] = {
    props = { { "facing", "up", FACING6 } },
    build = function(p) return { grown(p.facing, size[1], size[2]) } end,
  }
end

-- Pistons: extended, the base is 12/16 deep on the facing side. The head is a
-- 4/16 plate with an arm back toward the base; the arm's last 4/16 lie in
-- the base's cell (which the extended base leaves free) and are left out, as
-- boxes stay in their own cell.
families.piston = {
  props = { { "extended", "false", BOOL }, { "facing", "north", FACING6 } },
  build = function(p)
    if p.extended ~= "true" then return { FULL } end
    return { grown(p.facing, 12, 0) }
  end,
}
families.piston_head = {
  props = { { "facing", "north", FACING6 } },
  build = function(p)
    local back = OPPOSITE[p.facing] -- the arm runs from the plate to the base
    return { grown(back, 4, 0), grown(back, 16, 6) }
  end,
}

families.sea_pickle = counted("pickles", {
  px(6, 0, 6, 10, 6, 10), px(3, 0, 3, 13, 6, 13), px(2, 0, 2, 14, 6, 14), px(2, 0, 2, 14, 7, 14),
})
local EGGS = px(1, 0, 1, 15, 7, 15) -- two to four eggs
families.turtle_egg = counted("eggs", { px(3, 0, 3, 12, 7, 12), EGGS, EGGS, EGGS })

-- Pointed dripstone by thickness; a tip is short and hangs from its end.
-- Vanilla also shifts it by up to 1/8 block on X and Z by position, which a
-- block type cannot: the shape is centred.
local DRIPSTONE = {
  tip_merge = px(5, 0, 5, 11, 16, 11), frustum = px(4, 0, 4, 12, 16, 12),
  middle = px(3, 0, 3, 13, 16, 13), base = px(2, 0, 2, 14, 16, 14),
}
families.pointed_dripstone = {
  props = {
    { "thickness", "tip", set("tip_merge", "tip", "frustum", "middle", "base") },
    { "vertical_direction", "up", set("up", "down") },
  },
  build = function(p)
    if p.thickness ~= "tip" then return { DRIPSTONE[p.thickness] } end
    if p.vertical_direction == "down" then return { px(5, 5, 5, 11, 16, 11) } end
    return { px(5, 0, 5, 11, 11, 11) }
  end,
}

-- Big dripleaf: only the leaf collides, lower as it tilts, not at all when
-- fully tilted.
families.big_dripleaf = {
  props = { { "tilt", "none", set("none", "unstable", "partial", "full") } },
  build = function(p)
    if p.tilt == "full" then return {} end
    if p.tilt == "partial" then return { px(0, 11, 0, 16, 13, 16) } end
    return { px(0, 11, 0, 16, 15, 16) }
  end,
}

-- Chorus plants: a 10/16 core with an arm to each connected face.
local CHORUS_ARMS = {
  north = px(3, 3, 0, 13, 13, 3), south = px(3, 3, 13, 13, 13, 16),
  west = px(0, 3, 3, 3, 13, 13), east = px(13, 3, 3, 16, 13, 13),
  down = px(3, 0, 3, 13, 3, 13), up = px(3, 13, 3, 13, 16, 13),
}
local FACES6 = { "north", "east", "south", "west", "up", "down" }
local chorus_props = {}
for i, f in ipairs(FACES6) do chorus_props[i] = { f, "false", BOOL } end
families.chorus_plant = {
  props = chorus_props,
  build = function(p)
    local boxes = { px(3, 3, 3, 13, 13, 13) }
    for _, f in ipairs(FACES6) do
      if p[f] == "true" then boxes[#boxes + 1] = CHORUS_ARMS[f] end
    end
    return boxes
  end,
}

-- Pitcher crops: a bulb, then a low crop on the lower half; the upper half
-- has no collision. Vanilla's boxes start 1/16 below the cell (inside the
-- farmland's missing top sixteenth); they are cut at the cell's floor.
families.pitcher_crop = {
  props = { { "age", "0", set("0", "1", "2", "3", "4") }, { "half", "lower", set("lower", "upper") } },
  build = function(p)
    -- Only the lower half collides (PitcherCropBlock). The game's box starts 1/16
    -- below the cell, in the farmland, which a block type cannot: cut at the cell.
    if p.half ~= "lower" then return {} end
    if p.age == "0" then return { px(5, 0, 5, 11, 3, 11) } end
    return { px(3, 0, 3, 13, 5, 13) }
  end,
}

---------------------------------------------------------------------------
-- Fixed shapes and properties by exact name (without namespace).
---------------------------------------------------------------------------

local NONE = {}

-- Blocks an entity walks through.
local PASSABLE = {
  "air", "cave_air", "void_air", "structure_void", "light", "moving_piston",
  "grass", "short_grass", "tall_grass", "fern", "large_fern", "dead_bush", "bush",
  "short_dry_grass", "tall_dry_grass", "firefly_bush", "leaf_litter", "wildflowers",
  "dandelion", "poppy", "blue_orchid", "allium", "azure_bluet", "oxeye_daisy",
  "cornflower", "lily_of_the_valley", "wither_rose", "torchflower", "sunflower",
  "lilac", "rose_bush", "peony", "pitcher_plant", "pink_petals", "spore_blossom",
  "open_eyeblossom", "closed_eyeblossom", "cactus_flower", "golden_dandelion", "red_shrub",
  "brown_mushroom", "red_mushroom", "crimson_fungus", "warped_fungus",
  "crimson_roots", "warped_roots", "nether_sprouts", "hanging_roots",
  "mangrove_propagule", "bamboo_sapling", "sugar_cane",
  "wheat", "carrots", "potatoes", "beetroots", "melon_stem", "pumpkin_stem",
  "attached_melon_stem", "attached_pumpkin_stem", "torchflower_crop",
  "nether_wart", "sweet_berry_bush",
  "torch", "wall_torch", "soul_torch", "soul_wall_torch", "redstone_torch",
  "redstone_wall_torch", "copper_torch", "copper_wall_torch",
  "redstone_wire", "lever", "tripwire", "tripwire_hook",
  "rail", "powered_rail", "detector_rail", "activator_rail",
  "cobweb", "fire", "soul_fire", "glow_lichen", "sculk_vein", "resin_clump",
  "nether_portal", "end_portal", "end_gateway",
  "small_dripleaf", "big_dripleaf_stem", "frogspawn", "pale_hanging_moss",
  -- Powder snow only holds up entities wearing leather boots.
  "powder_snow",
}

-- Climbable blocks without collision boxes. Scaffolding is here too: in
-- vanilla its top only holds entities standing above it, which a static
-- box cannot express, and climbing is what it is used for.
local CLIMBABLE_PASSABLE = {
  "vine", "cave_vines", "cave_vines_plant", "weeping_vines", "weeping_vines_plant",
  "twisting_vines", "twisting_vines_plant", "scaffolding",
}

-- Fluids. Underwater plants are always full of water in vanilla.
local LIQUIDS = {
  water = "water", lava = "lava", bubble_column = "water",
  kelp = "water", kelp_plant = "water", seagrass = "water", tall_seagrass = "water",
}

-- Full-height-or-less solids with one fixed shape, in sixteenths.
local FIXED = {
  soul_sand = { px(0, 0, 0, 16, 14, 16) },
  mud = { px(0, 0, 0, 16, 14, 16) },
  farmland = { px(0, 0, 0, 16, 15, 16) },
  dirt_path = { px(0, 0, 0, 16, 15, 16) },
  grass_path = { px(0, 0, 0, 16, 15, 16) },
  enchanting_table = { px(0, 0, 0, 16, 12, 16) },
  daylight_detector = { px(0, 0, 0, 16, 6, 16) },
  -- Cactus collides 15/16 high (its outline is a full block tall), which is
  -- how entities end up touching it from above and the sides.
  cactus = { px(1, 0, 1, 15, 15, 15) },
  honey_block = { px(1, 0, 1, 15, 15, 15) },
  ender_chest = { px(1, 0, 1, 15, 14, 15) },
  -- every weathering stage of the statue ends in "_copper_golem_statue" (SUFFIXES)
  copper_golem_statue = { px(3, 0, 3, 13, 14, 13) },
  dried_ghast = { px(3, 0, 3, 13, 10, 13) },
  lily_pad = { px(1, 0, 1, 15, 1.5, 15) },
  brewing_stand = { px(1, 0, 1, 15, 2, 15), px(7, 2, 7, 9, 14, 9) },
  stonecutter = { px(0, 0, 0, 16, 9, 16) },
  lectern = { px(0, 0, 0, 16, 2, 16), px(4, 2, 4, 12, 14, 12) },
  campfire = { px(0, 0, 0, 16, 7, 16) },
  soul_campfire = { px(0, 0, 0, 16, 7, 16) },
  conduit = { px(5, 5, 5, 11, 11, 11) },
  flower_pot = { px(5, 0, 5, 11, 6, 11) },
  bamboo = { px(6.5, 0, 6.5, 9.5, 16, 9.5) },
  dragon_egg = { px(1, 0, 1, 15, 16, 15) },
  decorated_pot = { px(1, 0, 1, 15, 16, 15) },
  heavy_core = { px(4, 0, 4, 12, 8, 12) },
  sculk_sensor = { px(0, 0, 0, 16, 8, 16) },
  calibrated_sculk_sensor = { px(0, 0, 0, 16, 8, 16) },
  sculk_shrieker = { px(0, 0, 0, 16, 8, 16) },
  repeater = { px(0, 0, 0, 16, 2, 16) },
  comparator = { px(0, 0, 0, 16, 2, 16) },
  candle_cake = { px(1, 0, 1, 15, 8, 15), px(7, 8, 7, 9, 14, 9) },
  cauldron = cauldron(), water_cauldron = cauldron(), lava_cauldron = cauldron(),
  powder_snow_cauldron = cauldron(),
  azalea = { px(0, 8, 0, 16, 16, 16), px(6, 0, 6, 10, 8, 10) },
  flowering_azalea = { px(0, 8, 0, 16, 16, 16), px(6, 0, 6, 10, 8, 10) },
  sniffer_egg = { px(1, 0, 2, 15, 16, 14) },
  composter = basin(2),
}

-- The game's float literal x (0.98F) widened to double, as define_block's own
-- default slipperiness 0.6F is: block_info then shows the game's constants.
local function float(x) return (string.unpack("<f", string.pack("<f", x))) end

-- Friction factors different from the default 0.6F (float constants in the game).
local SLIPPERINESS = {
  ice = float(0.98), packed_ice = float(0.98), frosted_ice = float(0.98),
  blue_ice = float(0.989), slime_block = float(0.8),
}

local DEFAULT_SLIPPERINESS = float(0.6)

-- Blocks that slow what touches them, as Beta 1.7.3 has them (its BlockSoulSand and
-- BlockWeb; reference/b173-movement.md section 2): the X/Z velocity factor per
-- touched cell, and the webs.
local VELOCITY_FACTOR = { soul_sand = 0.4 }
local WEBS = { cobweb = true }

-- The water current (define_block's level, solid and ice; Beta's BlockFluid, whose
-- flow reads the material of the blocks beside the water): a liquid's level is its
-- state's (0 source, 1..7 flowing, 8..15 falling, as Beta's metadata). define_block
-- takes a block as solid when it has a box; these differ, as Beta's materials have
-- them (circuits, plants, snow and cloth are not solid; wood and stone are, boxes or
-- not). Only ice itself is Beta's ice material (packed and blue ice came later, with
-- a material of their own).
local NOT_SOLID = {
  ladder = true, snow = true, repeater = true, comparator = true, lily_pad = true,
  cocoa = true, moss_carpet = true, pale_moss_carpet = true,
}
local function ends_with_any(base, suffixes)
  for _, suffix in ipairs(suffixes) do
    if base:sub(-#suffix) == suffix then return true end
  end
  return false
end

local NOT_SOLID_SUFFIXES = { "_carpet" }
local SOLID_SUFFIXES = { "_sign", "_banner", "_pressure_plate" }
local SOLID_NO_BOX = { cobweb = true, moving_piston = true }
local ICE = { ice = true, frosted_ice = true }

-- pushOutOfBlocks (define_block's normal_cube; Beta's World.isBlockNormalCube: an
-- opaque material rendered as a whole cube): define_block takes the unit cube as one;
-- glass, leaves, ice and TNT are not (translucent materials), nor pistons (not
-- rendered as a whole cube); soul sand is (its box is lower, its block a whole cube).
-- Beta's glowstone is rock, so a normal cube.
local NOT_NORMAL = { glass = true, tinted_glass = true, ice = true, frosted_ice = true,
                     tnt = true, piston = true, sticky_piston = true }
local NOT_NORMAL_SUFFIXES = { "_stained_glass", "_leaves" }
local NORMAL = { soul_sand = true }

-- define_block's normal_cube where it differs from its default, else nil.
local function normal_cube_of(base)
  if base == nil then return nil end
  if NOT_NORMAL[base] or ends_with_any(base, NOT_NORMAL_SUFFIXES) then return false end
  if NORMAL[base] then return true end
  return nil
end

-- define_block's solid where it differs from its default (some box), else nil.
local function solid_of(base, boxes)
  if base == nil then return nil end
  if #boxes > 0 and (NOT_SOLID[base] or ends_with_any(base, NOT_SOLID_SUFFIXES)) then
    return false
  end
  if #boxes == 0 and (SOLID_NO_BOX[base] or ends_with_any(base, SOLID_SUFFIXES)) then
    return true
  end
  return nil
end

-- A liquid's level from its state, 1..15, or nil for 0 (a source) and anything else.
local function liquid_level(base, props)
  if not (base and LIQUIDS[base]) then return nil end
  local level = math.tointeger(tonumber(props.level and props.level:match("^%d%d?$")))
  return level and level >= 1 and level <= 15 and level or nil
end

-- Exact names that belong to a family.
local FAMILY_BY_NAME = {
  snow = "snow", ladder = "ladder", iron_bars = "pane", glass_pane = "pane",
  end_rod = "rod", lightning_rod = "rod", chain = "chain", iron_chain = "chain",
  lantern = "lantern", soul_lantern = "lantern", chest = "chest",
  trapped_chest = "chest", cake = "cake", anvil = "anvil", chipped_anvil = "anvil",
  damaged_anvil = "anvil", hopper = "hopper", end_portal_frame = "end_portal_frame",
  piglin_head = "piglin_head", piglin_wall_head = "piglin_wall_head",
  moss_carpet = "carpet", pale_moss_carpet = "pale_moss_carpet",
  piston = "piston", sticky_piston = "piston", piston_head = "piston_head",
  grindstone = "grindstone", bell = "bell", cocoa = "cocoa",
  amethyst_cluster = "amethyst_cluster", large_amethyst_bud = "large_amethyst_bud",
  medium_amethyst_bud = "medium_amethyst_bud", small_amethyst_bud = "small_amethyst_bud",
  sea_pickle = "sea_pickle", turtle_egg = "turtle_egg",
  pointed_dripstone = "pointed_dripstone", big_dripleaf = "big_dripleaf",
  chorus_plant = "chorus_plant", pitcher_crop = "pitcher_crop",
  sulfur_spike = "pointed_dripstone", straw_bed = "straw_bed", shelf_mushroom = "shelf_mushroom",
}

-- Name suffixes and the family or fixed shape they select, tried in order
-- (a suffix that ends another comes after it: "_fence_gate" before
-- "_fence"). A suffix also matches the bare name without its underscore
-- ("_candle" matches "candle").
local SUFFIXES = {
  { "_stairs", "stairs" }, { "_slab", "slab" },
  { "_fence_gate", "fence_gate" }, { "_fence", "fence" },
  { "_trapdoor", "trapdoor" }, { "_door", "door" },
  { "_glass_pane", "pane" }, { "_bars", "pane" },
  { "_wall_head", "wall_head" }, { "_wall_skull", "wall_head" },
  { "_head", "head" }, { "_skull", "head" },
  { "_wall_hanging_sign", "wall_hanging_sign" }, { "_sign", NONE }, { "_banner", NONE }, { "_button", NONE },
  { "_pressure_plate", NONE }, { "_sapling", NONE }, { "_tulip", NONE },
  { "_coral", NONE }, { "_coral_fan", NONE }, { "_coral_wall_fan", NONE },
  { "_carpet", "carpet" }, { "_wall", "wall" },
  { "_bed", "bed" },
  { "_chain", "chain" }, { "_lantern", "lantern" }, { "_lightning_rod", "rod" },
  { "_copper_chest", "chest" }, { "_shelf", "shelf" },
  { "_copper_golem_statue", FIXED.copper_golem_statue },
  { "_candle_cake", FIXED.candle_cake },
  { "_candle", "candle" },
}

-- Names that a suffix would catch but that are something else.
local NOT_BY_SUFFIX = { piston_head = true, sea_lantern = true, jack_o_lantern = true }

local function suffix_match(base)
  if NOT_BY_SUFFIX[base] then return nil end
  -- before the suffixes: a potted sapling or tulip is a pot, not a plant
  if base:sub(1, 7) == "potted_" then return FIXED.flower_pot end
  for _, entry in ipairs(SUFFIXES) do
    local suffix = entry[1]
    if base == suffix:sub(2) or base:sub(-#suffix) == suffix then
      return entry[2]
    end
  end
  return nil
end

-- Full cubes that are known to be full cubes (so they are not reported as
-- guesses). The long tail is caught by FULL_SUFFIXES below.
local FULL_NAMES = {
  "stone", "granite", "diorite", "andesite", "calcite", "tuff", "deepslate",
  "dirt", "coarse_dirt", "rooted_dirt", "podzol", "mycelium", "grass_block",
  "cobblestone", "bedrock", "sand", "red_sand", "suspicious_sand", "gravel",
  "suspicious_gravel", "clay", "glass", "sandstone", "bookshelf", "obsidian",
  "crying_obsidian", "glowstone", "netherrack", "soul_soil", "sea_lantern",
  "ice", "packed_ice", "blue_ice", "frosted_ice", "prismarine", "tnt", "pumpkin",
  "carved_pumpkin", "jack_o_lantern", "melon", "furnace", "blast_furnace",
  "smoker", "dispenser", "dropper", "observer",
  "jukebox", "spawner", "beacon", "barrier", "sponge", "wet_sponge", "target",
  "beehive", "bee_nest", "loom", "barrel", "crafter", "budding_amethyst",
  "sculk", "sculk_catalyst", "reinforced_deepslate", "shroomlight",
  "ancient_debris", "lodestone", "respawn_anchor", "gilded_blackstone",
  "blackstone", "basalt", "terracotta", "jigsaw", "mangrove_roots",
  "muddy_mangrove_roots", "packed_mud", "trial_spawner", "vault",
  "creaking_heart", "netherite_block", "magma_block", "quartz_pillar",
  "purpur_pillar", "chiseled_bookshelf", "infested_stone", "bricks", "chiseled_tuff",
  "sulfur", "polished_sulfur", "chiseled_sulfur", "potent_sulfur", "cinnabar",
  "polished_cinnabar", "chiseled_cinnabar",
  "polished_tuff", "shulker_box", "bamboo_mosaic", "chorus_flower",
}

local FULL_SUFFIXES = {
  "_planks", "_log", "_wood", "_stem", "_hyphae", "_leaves", "_wool",
  "_concrete", "_concrete_powder", "_terracotta", "_glass", "_ore", "_block",
  "_bricks", "_shulker_box", "_copper", "_sandstone", "_tiles", "_quartz",
  "_nylium", "_froglight", "_deepslate", "_andesite", "_granite", "_diorite",
  "_blackstone", "_basalt", "_prismarine", "_pillar", "_stone", "_table",
  "_lamp", "_bulb", "_grate", "_cobblestone",
}

local function is_full_cube(base)
  for _, suffix in ipairs(FULL_SUFFIXES) do
    if base:sub(-#suffix) == suffix then return true end
  end
  return false
end

-- Lookup tables built once from the lists above.
local PASSABLE_SET = set(table.unpack(PASSABLE))
local CLIMBABLE_SET = set(table.unpack(CLIMBABLE_PASSABLE))
local FULL_SET = set(table.unpack(FULL_NAMES))

-- Resolves a family's properties: missing ones take their default, invalid
-- ones too (and make the result a guess).
local function resolve(family, props)
  local p, parts, valid = {}, {}, true
  for i, spec in ipairs(family.props) do
    local key, default, allowed = spec[1], spec[2], spec[3]
    local v = props[key]
    if v == nil then
      v = default
    elseif not allowed[v] then
      v, valid = default, false
    end
    p[key] = v
    parts[i] = key .. "=" .. v
  end
  sort(parts)
  return p, parts, valid
end

-- The shape of a (namespace-less) vanilla name: boxes, the property parts
-- that name it, and whether the state was understood. Returns nil for
-- names this table does not know.
local function shape_of(base, props)
  if PASSABLE_SET[base] or CLIMBABLE_SET[base] or LIQUIDS[base] then
    return NONE, {}, true
  end
  if FIXED[base] then return FIXED[base], {}, true end
  local kind = FAMILY_BY_NAME[base] or suffix_match(base)
  if kind == nil then
    if FULL_SET[base] or is_full_cube(base) then return { FULL }, {}, true end
    return nil
  end
  if type(kind) == "table" then return kind, {}, true end
  local family = families[kind]
  local p, parts, valid = resolve(family, props)
  return family.build(p), parts, valid
end

--- Block definition for one block state.
--
-- The definition's `name` is the block name plus only the properties that
-- change its collision, sorted, with defaults filled in (for example
-- `"minecraft:oak_stairs[facing=east,half=bottom,shape=straight]"`), so
-- states that collide alike (any rotation of a sign) share one definition;
-- `waterlogged=true` is kept (such a block is water too: `liquid = "water"`
-- with its boxes), and so is a liquid's level other than 0. Unknown blocks
-- become full cubes named by their bare block name.
-- @tparam string state block state string (namespace optional)
-- @treturn[1] table `{name=, boxes=, slipperiness=, liquid=, climbable=,
--   velocity_factor=, web=, level=, solid=, ice=, normal_cube=}` for
--   `world:define_block`; boxes in block units, block-local (soul sand:
--   velocity_factor 0.4; cobweb: web = true; a liquid's level 1..15 from its state,
--   also in its name; solid, ice and normal_cube only where Beta's material differs
--   from define_block's default, as README "Real maps" lists)
-- @treturn[1] boolean `true` if the state was recognised, `false` if it
--   was guessed as a full cube (unknown block or invalid property value)
-- @raise "bad argument #1 to 'block_def' (string expected, got T)"
-- Source: our own tables of today's vanilla collision shapes (module header).
function minecraft.block_def(state)
  if type(state) ~= "string" then
    error(format("bad argument #1 to 'block_def' (string expected, got %s)", type(state)), 2)
  end
  local name, props = minecraft.parse_state(state)
  if not name then
    -- Malformed state: keep the text as the name so it stays unique.
    return { name = state, boxes = { FULL }, slipperiness = DEFAULT_SLIPPERINESS }, false
  end
  name = full_name(name)
  local base = vanilla_base(name)
  local boxes, parts, known
  if base then boxes, parts, known = shape_of(base, props) end
  if boxes == nil then
    boxes, parts, known = { FULL }, {}, false
  end
  local level = liquid_level(base, props)
  if level then parts[#parts + 1] = "level=" .. level end
  -- A waterlogged block holds still water in its cell, its boxes kept (today's game:
  -- an entity in it is in water).
  local waterlogged = props.waterlogged == "true" and not (base and LIQUIDS[base])
  if waterlogged then
    parts[#parts + 1] = "waterlogged=true"
    sort(parts)
  end
  local def = {
    name = #parts > 0 and name .. "[" .. concat(parts, ",") .. "]" or name,
    boxes = copy_boxes(boxes),
    slipperiness = base and SLIPPERINESS[base] or DEFAULT_SLIPPERINESS,
    liquid = waterlogged and "water" or base and LIQUIDS[base] or nil,
    climbable = base and (CLIMBABLE_SET[base] or base == "ladder") or nil,
    velocity_factor = base and VELOCITY_FACTOR[base] or nil,
    web = base and WEBS[base] or nil,
    level = level,
    solid = solid_of(base, boxes),
    ice = base and ICE[base] or nil,
    normal_cube = normal_cube_of(base),
  }
  return def, known
end

--- Whether a block name (with or without namespace, no properties) has a
-- known collision shape.
-- @tparam string name e.g. `"minecraft:oak_fence"` or `"oak_fence"`
-- @treturn boolean false also for a value that is not a string (never raises)
-- Source: our own shape tables (see `block_def`).
function minecraft.known(name)
  if type(name) ~= "string" then return false end
  local base = vanilla_base(name)
  return base ~= nil and shape_of(base, {}) ~= nil
end

--- Whether a block name is one of the air blocks (air, cave_air, void_air).
-- @tparam string name block name, with or without namespace
-- @treturn boolean false also for a value that is not a string (never raises)
-- Source: today's Minecraft block list (its three air blocks).
function minecraft.is_air(name)
  local n = type(name) == "string" and full_name(name)
  return n == "minecraft:air" or n == "minecraft:cave_air" or n == "minecraft:void_air"
end

--- Internal helpers shared with blockphys.minecraft_beta173 (not part of the API).
-- @local
minecraft._vanilla_base = vanilla_base
--- @local
minecraft._copy_boxes = copy_boxes

--- Beta 1.7.3's collision shapes where they differ from today's (fences, ladders,
-- snow layers, chests, farmland, cake): the module `blockphys.minecraft_beta173`,
-- loaded on first use. Pass it to `World:paste` as its `shapes`.
-- @field beta173
setmetatable(minecraft, {
  __index = function(t, k)
    if k ~= "beta173" then return nil end
    local m = require "blockphys.minecraft_beta173"
    rawset(t, k, m)
    return m
  end,
})

return minecraft
