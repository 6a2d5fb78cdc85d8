--- Pasting a loaded schematic into a world: `blockphys.schematic.paste` and the
-- body of `World:paste` (which `blockphys` defines: it also takes a path or bytes).
--
-- Every argument and every block definition is checked before the world is
-- touched, so a raised error leaves the world unchanged (running out of memory, a
-- debug hook's error or a finalizer destroying the world part-way excepted).
-- Source: our own.
--
-- Errors are raised at the line that called `paste` or `World:paste`: the checks
-- return `nil, message`, the message made whole where the problem is found (each
-- check is given the argument number it reports), and only the entry points
-- raise, at level 2. Nothing wraps the user's `block_def` in a pcall, so its errors
-- keep their own position and traceback. The world's methods are called through
-- pcall with no function of ours in between (here and in `place`, the last phase),
-- so the core's messages carry no position of this file and are raised again as
-- they are or at the caller's line, never reworded. The checks that need no world
-- are in `paste_args`.
--
-- @module blockphys.schematic.paste

local compat = require "blockphys.compat"
local core = require "blockphys.core"
local minecraft = require "blockphys.minecraft"
local states = require "blockphys.state"
local args = require "blockphys.schematic.paste_args"
local place = require "blockphys.schematic.place"

local pasting = {}

local format = string.format
local is_int = compat.is_integer
local parse_state, is_air, full_name = states.parse_state, states.is_air, states.full_name
local new_world, world_stats = core.constructors.World, core.World_methods.stats

local bad_arg = args.bad_arg

-- A World's protected metatable: getmetatable gives its name.
local WORLD = "blockphys.World"
-- Lua's message for a failed allocation, passed on as it is wherever it is met.
local NO_MEMORY = "not enough memory"

-- What luaL_typeerror calls a value in "X expected, got T": its metatable's
-- __name, read raw from the real metatable (past a protected __metatable), else
-- its type.
local function type_name(v)
  local mt = debug.getmetatable(v)
  local name = mt and rawget(mt, "__name")
  return type(name) == "string" and name or type(v)
end

local function is_world(world)
  return type(world) == "userdata" and getmetatable(world) == WORLD
end

-- Why `world` is not a live blockphys World, in the core's words for a bad self
-- ("world has been destroyed", "blockphys.World expected, got T"), or nil for a
-- live one. Whether it is live, the core says: its `stats` refuses anything else.
local function not_live(world)
  local ok, err = pcall(world_stats, world)
  if ok then return nil end
  if err == NO_MEMORY then error(err, 0) end -- not the world's fault
  if is_world(world) then return "world has been destroyed" end
  return "blockphys.World expected, got " .. type_name(world)
end

-- An error `err` a world method raised while paste used the world. A blockphys
-- World that a user's block_def or a finalizer destroyed under paste is paste's
-- own error about its world, argument n (1, or 0 for World:paste's self):
-- returned as nil and the message. Anything else (out of memory, a stand-in
-- world's own error) is raised again as it is.
local function world_failure(world, err, n)
  if err ~= NO_MEMORY and is_world(world) and not_live(world) then
    return nil, bad_arg(n, "world has been destroyed")
  end
  error(err, 0)
end

-- An error `err` the world raised while paste changed it (define_block,
-- set_block): a destroyed World as in world_failure; the core's own ("not enough
-- memory", "size limit exceeded") returned, for the entry point to raise at its
-- caller's line; a stand-in world's raised again as it is.
local function change_failure(world, err, n)
  if not is_world(world) then error(err, 0) end
  if err ~= NO_MEMORY and not_live(world) then
    return nil, bad_arg(n, "world has been destroyed")
  end
  return nil, err
end

local function method_of(obj, name)
  local ok, f = pcall(function() return obj[name] end)
  return ok and type(f) == "function"
end

-- The world's lock, checked before anything else and again before the world
-- changes: inside a rules hook or filter every paste fails, also one with nothing
-- to define or place, which would never meet the lock in define_block or
-- set_block, and no block_def runs; and a block_def that yielded may be resumed
-- inside a step. The core's message names the call it is given ("paste: world is
-- locked: ..."). A stand-in world has no lock. Returns true, or nil and the
-- message (the world being argument n).
local function check_unlocked(world, n)
  if not method_of(world, "_check_unlocked") then return true end
  local ok, err = pcall(world._check_unlocked, world, "paste")
  if ok then return true end
  if err ~= NO_MEMORY and is_world(world) and not not_live(world) then
    return nil, err -- a live World refuses only while it is locked
  end
  return world_failure(world, err, n)
end

-- paste's world (argument 1): true, or nil and the message.
local function check_world(world)
  local t = type(world)
  if t ~= "table" and t ~= "userdata" then return nil, bad_arg(1, "world expected, got " .. t) end
  for _, m in ipairs({ "define_block", "block_id", "set_block" }) do
    if not method_of(world, m) then return nil, bad_arg(1, "world has no method '" .. m .. "'") end
  end
  return true
end

-- One definition per palette entry (nil for air), plus the sorted names
-- of states the shape table guessed; or nil and the message of a definition that
-- is none (the shape table being argument n).
local function palette_defs(palette, shapes, n)
  local defs, guessed, seen = {}, {}, {}
  for i, state in ipairs(palette) do
    local name = parse_state(state)
    if not (name and is_air(name)) then
      local def, known = shapes.block_def(state)
      local err
      defs[i], err = args.definition(state, def, n)
      if not defs[i] then return nil, err end
      local bare = name and full_name(name) or state
      if known == false and not seen[bare] then
        seen[bare] = true
        guessed[#guessed + 1] = bare
      end
    end
  end
  table.sort(guessed)
  return defs, guessed
end

-- Block types the world defines at most (ids are 16-bit, air included).
local MAX_TYPES = 65536

-- How define_block's messages start. paste reports a definition's problem after
-- the block_def that made it, in place of this: the core takes no caller's name
-- for define_block's messages, as it does for the lock's.
local DEFINE_PREFIX = "define_block: "

-- Whether the world has a type of this name; or nil and the message when the
-- world was destroyed under paste (the world being argument self_n).
local function has_type(world, name, self_n)
  local ok, id = pcall(world.block_id, world, name)
  if not ok then return world_failure(world, id, self_n) end
  return id ~= nil and id ~= false
end

-- Defines, in a scratch world, every type that `define_all` will define, so that
-- whatever `World:define_block` would reject (a bad box, slipperiness, liquid, an
-- unknown field, too many types) is found here, before the real world changes.
-- `define_block`'s own checks are the only ones: nothing is checked twice.
-- Returns true, or nil and the message (the shape table being argument n, the
-- world argument self_n).
local function check_new_types(world, palette, defs, n, self_n)
  local scratch = new_world()
  local new = 0
  for i = 1, #palette do
    local def = defs[i]
    if def then
      local known, err = has_type(world, def.name, self_n)
      if known == nil then scratch:destroy(); return nil, err end
      if not known and not scratch:block_id(def.name) then
        local ok, msg = pcall(scratch.define_block, scratch, def)
        if not ok then
          scratch:destroy()
          if msg == NO_MEMORY then error(msg, 0) end -- not the definition's fault
          msg = tostring(msg)
          if msg:sub(1, #DEFINE_PREFIX) == DEFINE_PREFIX then msg = msg:sub(#DEFINE_PREFIX + 1) end
          return nil, bad_arg(n, format("block_def(%q): %s", palette[i], msg))
        end
        new = new + 1
      end
    end
  end
  scratch:destroy()
  if method_of(world, "stats") then
    local ok, stats = pcall(world.stats, world)
    if not ok then return world_failure(world, stats, self_n) end
    local have = type(stats) == "table" and rawget(stats, "block_types")
    if is_int(have) and have + new > MAX_TYPES then
      return nil, bad_arg(n, format("%d new block types would exceed the world's %d", new, MAX_TYPES))
    end
  end
  return true
end

-- The body of paste, up to the report; `base` shifts the argument numbers (0 for
-- paste, -1 for World:paste). Returns the report, or nil and the message the entry
-- point raises at its caller's line.
local function try_paste(world, schem, x, y, z, shapes, base)
  local self_n = 1 + base
  local ok, err = check_unlocked(world, self_n)
  if not ok then return nil, err end
  schem, err = args.schematic(schem, 2 + base)
  if not schem then return nil, err end
  local w, h, l = schem.width, schem.height, schem.length
  x, err = args.coord(3 + base, x, w)
  if not x then return nil, err end
  y, err = args.coord(4 + base, y, h)
  if not y then return nil, err end
  z, err = args.coord(5 + base, z, l)
  if not z then return nil, err end
  shapes = shapes == nil and minecraft or shapes
  if type(shapes) ~= "table" or type(shapes.block_def) ~= "function" then
    return nil, bad_arg(6 + base, "shape table with a block_def function expected")
  end
  local defs, guessed = palette_defs(schem.palette, shapes, 6 + base)
  if not defs then return nil, guessed end
  ok, err = check_new_types(world, schem.palette, defs, 6 + base, self_n)
  if not ok then return nil, err end
  ok, err = check_unlocked(world, self_n)
  if not ok then return nil, err end
  local placed, changing
  placed, err, changing = place.into(world, schem, defs, x, y, z)
  if not placed then
    if changing then return change_failure(world, err, self_n) end
    return world_failure(world, err, self_n)
  end
  return { placed = placed, guessed = guessed }
end

--- Places a schematic in a world with its minimum corner at block (x, y, z).
--
-- The schematic's own `offset` is not applied. Air cells (air, cave_air,
-- void_air) are skipped, so they leave the world's blocks as they were. A cell
-- whose index has no palette entry (a table built or changed by hand) raises.
-- Each distinct palette state is turned into a block type with
-- `shapes.block_def(state)`; a type whose name the world already knows
-- (`world:block_id`) is reused as it is.
--
-- Every argument and every definition is checked before the world is
-- touched, so a raised error leaves the world unchanged: each new type is first
-- defined in a scratch World, so whatever `World:define_block` would reject
-- (a bad box or field, a name that is not a string) raises here, as does a
-- palette whose new types would pass the world's 65,536 types. Only an error
-- that does not come from the checks (out of memory, a debug hook's, a finalizer
-- destroying the world) can leave some types defined and some blocks placed.
-- Source: our own.
-- @param world a `blockphys` World (or anything with `define_block`,
--   `block_id` and `set_block` methods; its definitions are still checked by a
--   blockphys World's rules, and its `stats().block_types`, if any, by the type limit)
-- @tparam table schem a schematic from `load`
-- @tparam integer x block X of the minimum corner (int32, as is x + width - 1)
-- @tparam integer y block Y of the minimum corner (int32, as is y + height - 1)
-- @tparam integer z block Z of the minimum corner (int32, as is z + length - 1)
-- @tparam[opt] table shapes module with `block_def(state) -> def, known`
--   (default `blockphys.minecraft`)
-- @treturn table `{placed = n, guessed = {names...}}`: blocks set, and the
--   sorted unique block names the shape table did not know (they became
--   full cubes)
-- @raise `bad argument #n to 'paste' (...)` for a bad world, schematic,
--   coordinate or shape definition (`block_def("<state>"): <define_block's
--   message>`), or too many new types; `bad argument #1 to 'paste' (world has
--   been destroyed)` (`calling 'paste' on bad self (...)` for `World:paste`) when
--   a `block_def` destroyed the world; the world's own errors ("paste: world is
--   locked ..." inside a step hook or filter, raised at the caller's line, and
--   "not enough memory" unchanged)
function pasting.paste(world, schem, x, y, z, shapes)
  local ok, err = check_world(world)
  local report
  if ok then report, err = try_paste(world, schem, x, y, z, shapes, 0) end
  if not report then error(err, 2) end
  return report
end

--- The message `World:paste` raises when its self is not a live World
-- ("calling 'paste' on bad self (world has been destroyed)", or "(blockphys.World
-- expected, got T)"), or nil for a live one.
-- @param world `World:paste`'s self
-- @treturn string|nil
function pasting.self_error(world)
  local why = not_live(world)
  return why and bad_arg(0, why)
end

--- `paste` for `World:paste`, whose caller has checked the world (`self_error`)
-- and loaded the schematic: the same, with argument numbers counted from the
-- schematic (the world is self), and errors returned for the caller to raise at
-- its caller's line.
-- @param world a live World
-- @tparam table schem a schematic from `blockphys.schematic.load`
-- @tparam integer x
-- @tparam integer y
-- @tparam integer z
-- @tparam[opt] table shapes
-- @treturn[1] table `{placed = n, guessed = {names...}}`
-- @return[2] nil
-- @treturn[2] string the message, as `paste` words it
function pasting.into_self(world, schem, x, y, z, shapes)
  return try_paste(world, schem, x, y, z, shapes, -1)
end

return pasting

