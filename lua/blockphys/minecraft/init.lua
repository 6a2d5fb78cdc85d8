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
-- The tables live in the modules of this package: `shapes` (which shape each
-- name has), `families_building` and `families_objects` (the shapes that depend
-- on the state), `materials` (what a block is made of besides its boxes),
-- `boxes` (box and direction helpers) and `vanilla` (`block_def` and `known`);
-- block states are read by `blockphys.state`.
--
-- @module blockphys.minecraft

local states = require "blockphys.state"
local vanilla = require "blockphys.minecraft.vanilla"
local beta173 = require "blockphys.minecraft.beta173"

local minecraft = {}

--- Splits a block state string into its name and properties:
-- `blockphys.state.parse_state`, which documents the results (a malformed string
-- or another type gives `nil, message`; never raises).
-- @function parse_state
-- @tparam string s e.g. `"minecraft:oak_stairs[facing=east,half=bottom]"`
minecraft.parse_state = states.parse_state

--- Block definition for one block state: `blockphys.minecraft.vanilla.block_def`,
-- which documents the definition, the `known` flag and the error.
-- @function block_def
-- @tparam string state block state string (namespace optional)
-- @raise "bad argument #1 to 'block_def' (string expected, got T)"
minecraft.block_def = vanilla.block_def

--- Whether a block name (with or without namespace, no properties) has a
-- known collision shape: `blockphys.minecraft.vanilla.known`.
-- @function known
-- @tparam string name e.g. `"minecraft:oak_fence"` or `"oak_fence"`
-- @treturn boolean false also for a value that is not a string (never raises)
minecraft.known = vanilla.known

--- Whether a block name is one of the air blocks (air, cave_air, void_air):
-- `blockphys.state.is_air`.
-- @function is_air
-- @tparam string name block name, with or without namespace
-- @treturn boolean false also for a value that is not a string (never raises)
minecraft.is_air = states.is_air

--- Beta 1.7.3's collision shapes where they differ from today's (fences, ladders,
-- snow layers, chests, farmland, cake): the module `blockphys.minecraft.beta173`
-- (also `blockphys.minecraft_beta173`). Pass it to `World:paste` as its `shapes`.
-- @field beta173
minecraft.beta173 = beta173

return minecraft
