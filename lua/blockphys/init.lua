--- blockphys: entity movement and collision for block worlds.
--
-- The Lua face of the C core `blockphys.core`: constructors, rule presets and the
-- Lua modules (schematic import, vanilla shapes, the NBT reader). See docs/api.md for
-- the full API with units and errors, and docs/architecture.md for the architecture.
--
-- @module blockphys
-- @usage
-- local bp = require "blockphys"
-- local world = bp.World()
-- world:define_block{ name = "stone" }
-- world:fill(-8, 0, -8, 8, 0, 8, "stone")
-- local e = world:spawn{ x = 0.5, y = 1, z = 0.5 }
-- e.forward = 1
-- for _ = 1, 20 do world:step() end
local core = require "blockphys.core"
local _ = require "blockphys.ffi" -- LuaJIT: the FFI fast path of the hot calls (nothing elsewhere)
local nbt = require "blockphys.nbt"
local minecraft = require "blockphys.minecraft"
local schematic = require "blockphys.schematic"
local pasting = require "blockphys.schematic.paste"

-- A read-only copy of table src: reads and pairs see the copy, writes raise (a
-- write to a plain table would stick there and change nothing, misleading its
-- writer). The copy is private, so a write to src (bp.core.limits) does not show.
local function read_only(src, name)
  local t = {}
  for k, v in pairs(src) do t[k] = v end
  return setmetatable({}, {
    __index = t,
    __newindex = function(_, k)
      error(("%s is read-only (cannot set '%s': the limits are fixed)"):format(name, tostring(k)), 2)
    end,
    __pairs = function() return next, t, nil end,
    __metatable = false,
  })
end

local bp = {
  --- The version string, `"blockphys 0.1.0"`.
  _VERSION = core._VERSION,
  --- Limits of one call: `max_move` (1024 blocks per axis per move or step),
  -- `max_coord` (2147482000, |entity coordinate|), `max_width` (16 blocks),
  -- `max_height` (32 blocks), `max_fill_chunks` (1048576 chunks of 16^3 per fill),
  -- `max_fill_cut_chunks` (65536 chunks a fill covers in part), `max_query_cells`
  -- (16777216 cells per boxes_in/sweep), `max_query_boxes` (1048576 boxes per
  -- boxes_in and sweep), `max_ray` (4096 blocks), `min_dt` and `max_dt` (1e-06 and 1 s,
  -- world:step's dt).
  -- Beyond a limit the call raises and changes nothing. Read-only: a write raises
  -- "bp.limits is read-only (...)". Source: our own.
  limits = read_only(core.limits, "bp.limits"),
  core = core,
  --- The NBT reader, `blockphys.nbt`.
  nbt = nbt,
  --- Schematic import, `blockphys.schematic`.
  schematic = schematic,
  --- Vanilla collision shapes, `blockphys.minecraft`.
  minecraft = minecraft,
}

--- A new empty world (every block is air). Freed by `world:destroy()`, `__close`
-- or garbage collection; methods of a destroyed world raise "(world has been destroyed)".
-- @function World
-- @treturn World
-- @raise "not enough memory". Source: our own.
bp.World = core.constructors.World

--- An axis-aligned box from its min and max corners (blocks).
-- @function Collider
-- @tparam number x1 min x
-- @tparam number y1 min y
-- @tparam number z1 min z
-- @tparam number x2 max x
-- @tparam number y2 max y
-- @tparam number z2 max z
-- @treturn Collider
-- @raise "bad argument #n to 'Collider' (number expected, got T)", "(number must be
--   finite)", or "(max corner must not be below the min corner)". Source:
--   MC-CPP's collider document (docs/sources.md) (MC-CPP's Collider, the box of Beta's AxisAlignedBB).
bp.Collider = core.constructors.Collider

--- A snapshot from the bytes of `snap:encode()` (docs/rollback.md): nil and a message
-- for anything truncated, corrupted or of an unknown version, never an error.
-- @function decode_snapshot
-- @tparam string bytes
-- @treturn[1] Snapshot
-- @treturn[2] nil
-- @treturn[2] string message ("decode_snapshot: truncated", "decode_snapshot: corrupted: ...")
-- @raise "not enough memory", a non-string argument. Source: our own.
bp.decode_snapshot = core.constructors.decode_snapshot

--- Rule presets. Each returns a complete rules table: every constant of the model
-- as a named field, overridden by the fields of `overrides`. Unknown names raise.
-- @section rules
bp.rules = {}

-- core.make_rules for a preset, as pcall would return it: true, rules or false, message.
-- Called directly by pcall, the C function's errors carry no position prefix (their
-- level-1 caller is then pcall, a C function), so the preset can raise them with
-- error(message, 2) at its caller's line.
local function make_rules(model, overrides)
  if overrides ~= nil and type(overrides) ~= "table" then
    -- a typed userdata by its name, which its protected metatable gives (e.rules is a
    -- blockphys.RulesView: see bp.rules.copy)
    local mt = getmetatable(overrides)
    local name = type(mt) == "string" and mt
      or type(mt) == "table" and type(rawget(mt, "__name")) == "string" and mt.__name
    return false, ("bp.rules.%s: bad argument #1 (table expected, got %s)"):format(model,
      name or type(overrides))
  end
  return pcall(core.make_rules, model, overrides)
end

--- Beta 1.7.3 rules (per tick: blocks, blocks/tick). Source:
-- `docs/beta173.md`. Defaults are the game's float constants
-- widened to double; docs/beta173.md lists every field.
-- @tparam[opt] table overrides e.g. `{ jump_impulse = 0.6, heading = fn, jump = fn }`
-- @treturn table rules
-- @raise "bp.rules.beta173: unknown rule 'x' for model beta173", "bp.rules.beta173:
-- rule 'k' belongs to model mccpp, not beta173", or a type/range error;
-- an override `model` other than "beta173" raises
-- "bp.rules.beta173: rule 'model' cannot change (make new rules with bp.rules.mccpp)";
-- `overrides` neither a table nor nil raises
-- "bp.rules.beta173: bad argument #1 (table expected, got T)". Errors carry the
-- position of the caller's line.
function bp.rules.beta173(overrides)
  local ok, res = make_rules("beta173", overrides)
  if not ok then error(res, 2) end
  return res
end

--- MC-CPP rules (per second: blocks, blocks/s, `world:step(dt)`). Source:
-- MC-CPP's entity physics document (`docs/sources.md`).
-- @tparam[opt] table overrides
-- @treturn table rules
-- @raise as `bp.rules.beta173`, naming `bp.rules.mccpp`.
function bp.rules.mccpp(overrides)
  local ok, res = make_rules("mccpp", overrides)
  if not ok then error(res, 2) end
  return res
end

--- A plain rules table copied from an entity's live `e.rules` view, or from a rules
-- table (hooks included); changing the copy changes neither the entity nor the table.
-- @function bp.rules.copy
-- @param rules `e.rules` or a rules table
-- @treturn table rules
-- @raise "bp.rules.copy: bad argument #1 (e.rules or a rules table expected, got T)",
--   or "entity.rules: entity has been removed" for a removed entity's view.
-- Source: our own.
bp.rules.copy = core.rules_copy

--- World methods written in Lua.
-- @section World

local world_methods = core.World_methods

--- Places a schematic with its minimum corner at block (x, y, z), defining the
-- block types it needs (see `blockphys.schematic.paste`, which this calls).
--
-- `schem` may also be a path or the file's bytes: it is then loaded first with
-- `blockphys.schematic.load`, and a file that cannot be read or parsed returns
-- `nil, message` with the world untouched.
-- @function World:paste
-- @tparam table|string schem a schematic from `bp.schematic.load`, a path, or bytes
-- @tparam integer x block X of the minimum corner
-- @tparam integer y block Y of the minimum corner
-- @tparam integer z block Z of the minimum corner
-- @tparam[opt] table shapes `block_def(state) -> def, known` (default `bp.minecraft`)
-- @treturn[1] table `{placed = n, guessed = {names...}}`
-- @return[2] nil
-- @treturn[2] string message from `bp.schematic.load`
-- @raise `bad argument #n to 'paste' (...)`, numbered from `schem` = #1, for a bad
--   schematic, coordinate, shape table or definition (nothing is placed); "calling
--   'paste' on bad self (...)" when self is not a live World; "paste: world is locked ..."
--   inside a step (at the caller's line, nothing placed). Source: our own.
-- @usage local report = assert(world:paste("lobby.schem", 0, 64, 0))
function world_methods.paste(world, schem, x, y, z, shapes)
  local bad_self = pasting.self_error(world)
  if bad_self then error(bad_self, 2) end
  if type(schem) == "string" then
    local loaded, msg = schematic.load(schem)
    if not loaded then return nil, msg end
    schem = loaded
  end
  local report, err = pasting.into_self(world, schem, x, y, z, shapes)
  if not report then error(err, 2) end
  return report
end

return bp
