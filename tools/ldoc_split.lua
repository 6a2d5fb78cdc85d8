-- make docs: the binding's LDoc comments sorted into one file per public type, so
-- that World, Entity, Collider and the rules each get a page of their own under their
-- public names (LDoc takes one module per source file, and the binding's files are
-- cut by concern: lentity.c documents World:spawn beside the Entity methods).
-- Usage: lua tools/ldoc_split.lua <out dir> <binding .c files...>
-- Each /*** ... */ comment with an @function goes to the page of its name's type
-- (World:..., Entity:..., Collider:..., Rules:/RulesView:... to RulesView); names
-- without a type (the module's internal functions, the constructors, which the
-- blockphys module documents as bp.World and bp.Collider) and ltesting.c's internal
-- methods to the page blockphys.core, which also takes the module's description (lblockphys.c).
-- The files' own @module comments are dropped. Each page starts with its type's home
-- file (lworld.c for World, ...), then the others in name order.
local out, files = arg[1], {}
for i = 2, #arg do files[#files + 1] = arg[i] end
table.sort(files)

local DESC = {
  World = "Worlds: blocks, block types, static colliders and entities, made by `bp.World()`.\n"
    .. " * Methods written in Lua (World:paste) are on the page of the `blockphys` module.",
  Entity = "Entities: boxes that move through a world, made by World:spawn. Their fields\n"
    .. " * (x, y, z, vx, vy, vz, on_ground, rules, ...) are read and written through\n"
    .. " * `Entity:__index` and `Entity:__newindex`.",
  Collider = "Colliders: axis-aligned boxes (blocks) as values, made by\n"
    .. " * `bp.Collider(x1, y1, z1, x2, y2, z2)`.",
  RulesView = "Rules: the tables the presets `bp.rules.beta173` and `bp.rules.mccpp` return\n"
    .. " * (type blockphys.Rules), and an entity's live view of its own rules (`e.rules`,\n"
    .. " * type blockphys.RulesView).",
}
DESC.Snapshot = "Snapshots: a world's whole state, made by World:snapshot or\n"
  .. " * `bp.decode_snapshot(bytes)`, put back by World:restore (docs/rollback.md)."
local HOME = { World = "lworld.c", Entity = "lentity.c", Collider = "lcollider.c",
               RulesView = "lrules.c", Snapshot = "lsnapshot.c", ["blockphys.core"] = "lblockphys.c" }
local ORDER = { "World", "Entity", "Collider", "RulesView", "Snapshot", "blockphys.core" }

local function page_of(name, file)
  -- the constructors World and Collider: the blockphys module documents them (bp.World)
  if file:match("ltesting%.c$") or not name:find("[:.]") then return "blockphys.core" end
  local t = name:match("^(%u%a*)")
  if t == "Rules" then return "RulesView" end
  if DESC[t] then return t end
  return "blockphys.core"
end

local pages, core_desc = {}, nil
for _, p in ipairs(ORDER) do pages[p] = { home = {}, rest = {} } end
for _, file in ipairs(files) do
  local f = assert(io.open(file, "rb"))
  local src = f:read("*a")
  f:close()
  local base = file:match("[^/]+$")
  for body in src:gmatch("/%*%*%*\n(.-)%*/") do
    local name = body:match("@function%s+(%S+)")
    if name then
      local page = page_of(name, file)
      local list = base == HOME[page] and pages[page].home or pages[page].rest
      list[#list + 1] = "/***\n" .. body .. "*/\n"
    elseif base == "lblockphys.c" and body:match("@module blockphys%.core") then
      core_desc = body
    end
  end
end

for _, p in ipairs(ORDER) do
  local head = p == "blockphys.core"
    and "/***\n" .. assert(core_desc, "lblockphys.c: no @module blockphys.core comment") .. "*/\n"
    or ("/***\n * %s\n * @classmod %s\n */\n"):format(DESC[p], p)
  local parts = { head }
  for _, b in ipairs(pages[p].home) do parts[#parts + 1] = b end
  for _, b in ipairs(pages[p].rest) do parts[#parts + 1] = b end
  local f = assert(io.open(out .. "/" .. p .. ".c", "wb"))
  f:write(table.concat(parts, "\n"))
  f:close()
end
