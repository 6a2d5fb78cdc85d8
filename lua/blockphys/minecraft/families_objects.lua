--- Shape families of objects for `blockphys.minecraft`: heads, rods and chains,
-- lanterns, chests, shelves, cakes, anvils, hoppers, end portal frames, candles,
-- beds, hanging signs, shelf mushrooms, grindstones, bells, cocoa, amethyst,
-- pistons, sea pickles, turtle eggs, dripstone, big dripleaves, chorus plants and
-- pitcher crops.
--
-- A family is data, as in `blockphys.minecraft.families_building`: `props` (the
-- properties that matter, `{key, default, allowed}`) and `build(p)`.
--
-- Source: vanilla block shapes as documented on the Minecraft Wiki (minecraft.wiki)
-- block pages and, for shapes that depend on the state (candles, beds, pistons,
-- grindstones, bells, cocoa, amethyst, dripstone, dripleaves, chorus plants), the
-- game's block classes; our own transcription (see `blockphys.minecraft`).
--
-- @module blockphys.minecraft.families_objects
-- @local

local helpers = require "blockphys.minecraft.boxes"

local px, rotate, set, grown = helpers.px, helpers.rotate, helpers.set, helpers.grown
local FULL, OPPOSITE, AXIS_OF = helpers.FULL, helpers.OPPOSITE, helpers.AXIS_OF
local FACING4, FACING6, BOOL = helpers.FACING4, helpers.FACING6, helpers.BOOL

local families = {}

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

return families
