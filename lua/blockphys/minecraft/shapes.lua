--- Which shape each vanilla block name has, for `blockphys.minecraft`: the blocks
-- an entity walks through, fixed shapes by exact name, the shape family of a name
-- (by name or by suffix, from `families_building` and `families_objects`), and
-- the full cubes. Names are namespace-less.
--
-- Source: vanilla block shapes as documented on the Minecraft Wiki (minecraft.wiki)
-- block pages; our own tables (see `blockphys.minecraft`).
--
-- @module blockphys.minecraft.shapes
-- @local

local compat = require "blockphys.compat"
local helpers = require "blockphys.minecraft.boxes"
local materials = require "blockphys.minecraft.materials"
local building = require "blockphys.minecraft.families_building"
local objects = require "blockphys.minecraft.families_objects"

local shapes = {}

local sort = table.sort
local px, set, basin, cauldron = helpers.px, helpers.set, helpers.basin, helpers.cauldron
local FULL, NONE = helpers.FULL, helpers.NONE
local LIQUIDS, CLIMBABLE_SET = materials.LIQUIDS, materials.CLIMBABLE

-- Every family by kind name.
local families = {}
for _, group in ipairs({ building, objects }) do
  for kind, family in pairs(group) do families[kind] = family end
end

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
local PASSABLE_SET = set(compat.unpack_table(PASSABLE))
local FULL_SET = set(compat.unpack_table(FULL_NAMES))

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

--- The shape of a (namespace-less) vanilla name: boxes (shared: copy them before
-- handing them out), the property parts that name it (sorted `"key=value"`
-- strings), and whether the state was understood. Returns nil for names this
-- table does not know.
-- @tparam string base e.g. `"oak_stairs"`
-- @tparam table props the state's properties (`blockphys.state.parse_state`)
function shapes.of(base, props)
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

return shapes
