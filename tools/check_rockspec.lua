-- Checks that rockspecs/blockphys-scm-1.rockspec names every file a LuaRocks build
-- needs: each csrc/core/*.c and csrc/binding/*.c among blockphys.core's sources, and
-- each lua/blockphys/**/*.lua as a module under its require name. The Makefile finds
-- its files by wildcard, LuaRocks' builtin type only by this list, so a new file that
-- is missing here builds under make and fails only after `luarocks make`.
-- Usage: lua tools/check_rockspec.lua [rockspec]
local path = arg[1] or "rockspecs/blockphys-scm-1.rockspec"

-- The rockspec is Lua assignments, run in a table of their own (Lua 5.1 and LuaJIT
-- take the table through setfenv, the others through loadfile's env).
local spec = {}
local chunk = assert(loadfile(path, "t", spec))
local setfenv = rawget(_G, "setfenv")
if setfenv then setfenv(chunk, spec) end
chunk()

local function lines(cmd)
  local p = assert(io.popen(cmd))
  local out = {}
  for l in p:lines() do out[#out + 1] = l end
  p:close()
  return out
end

local problems = 0
local function problem(msg)
  problems = problems + 1
  print("check_rockspec: " .. msg)
end

local modules = spec.build and spec.build.modules or {}
local core = modules["blockphys.core"] or {}
local listed = {}
for _, src in ipairs(core.sources or {}) do listed[src] = true end
local on_disk = {}
for _, src in ipairs(lines("ls csrc/core/*.c csrc/binding/*.c")) do
  on_disk[src] = true
  if not listed[src] then problem(src .. " is not among blockphys.core's sources") end
end
for src in pairs(listed) do
  if not on_disk[src] then problem(src .. " is listed but does not exist") end
end

local by_file = {}
for name, file in pairs(modules) do
  if type(file) == "string" then by_file[file] = name end
end
for _, file in ipairs(lines("find lua/blockphys -name '*.lua' | sort")) do
  local name = file:gsub("^lua/", ""):gsub("%.lua$", ""):gsub("/init$", ""):gsub("/", ".")
  if by_file[file] ~= name then
    problem(file .. " should be the module " .. name .. " (the rockspec says "
      .. tostring(by_file[file]) .. ")")
  end
  by_file[file] = nil
end
for file, name in pairs(by_file) do
  problem(name .. " names " .. file .. ", which does not exist")
end

if problems > 0 then
  print(problems .. " problems")
  os.exit(1)
end
local n = 0
for _ in pairs(listed) do n = n + 1 end
print("check_rockspec: " .. n .. " C sources and every Lua module listed")
