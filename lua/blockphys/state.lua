--- Block state strings: `name[key=value,...]` split into its name and properties,
-- and the names every reader of states compares (the default namespace, the air
-- blocks).
--
-- A leaf module: the shape tables (`blockphys.minecraft`) and the schematic
-- loaders (`blockphys.schematic`) both read states, and neither should have to load
-- the other to do it. `blockphys.minecraft` and `blockphys.schematic` re-export
-- `parse_state` and `is_air`.
--
-- @module blockphys.state
-- @local

local state = {}

local format = string.format

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
function state.parse_state(s)
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

--- A block name with the default namespace added, so that "stone" and
-- "minecraft:stone" are one block.
-- @tparam string name
-- @treturn string
function state.full_name(name)
  if name:find(":", 1, true) then return name end
  return "minecraft:" .. name
end

--- The namespace-less name of a vanilla block ("oak_fence" for
-- "minecraft:oak_fence" or "oak_fence"), nil for another namespace.
-- @tparam string name
-- @treturn string|nil
function state.vanilla_base(name)
  return state.full_name(name):match("^minecraft:(.+)$")
end

--- Whether a block name is one of the air blocks (air, cave_air, void_air).
-- @tparam string name block name, with or without namespace
-- @treturn boolean false also for a value that is not a string (never raises)
-- Source: today's Minecraft block list (its three air blocks).
function state.is_air(name)
  local n = type(name) == "string" and state.full_name(name)
  return n == "minecraft:air" or n == "minecraft:cave_air" or n == "minecraft:void_air"
end

return state
