-- Checks how the Lua modules of lua/blockphys/ require each other:
--   * no cycle (A requires B requires A, directly or through others),
--   * every require at the top of its file (before the first function, at no
--     indentation: nothing loaded lazily or mid-file),
--   * every blockphys module required exists,
--   * the rockspec's build.modules lists every file under its dotted name.
-- Prints each problem and exits 1 if there is any. Run from the checkout:
--   lua5.4 tools/check_requires.lua
-- Source: our own. Plain Lua (5.1 and later); `find` lists the files.

local ROOT = "lua/"
local ROCKSPEC = "rockspecs/blockphys-scm-1.rockspec"

local problems = {}
local function problem(fmt, ...)
  problems[#problems + 1] = string.format(fmt, ...)
end

local function read(path)
  local f = assert(io.open(path, "rb"))
  local s = f:read("*a")
  f:close()
  return s
end

-- The module name of a file: lua/blockphys/schematic/init.lua -> blockphys.schematic.
local function module_name(path)
  local name = path:sub(#ROOT + 1):gsub("%.lua$", ""):gsub("/init$", ""):gsub("/", ".")
  return name
end

local files = {}
local p = assert(io.popen("find " .. ROOT .. "blockphys -name '*.lua' | sort"))
for path in p:lines() do files[#files + 1] = path end
p:close()

local file_of, requires = {}, {}
for _, path in ipairs(files) do
  file_of[module_name(path)] = path
end

for _, path in ipairs(files) do
  local name = module_name(path)
  requires[name] = {}
  local seen_function = false
  local n = 0
  for line in (read(path) .. "\n"):gmatch("([^\n]*)\n") do
    n = n + 1
    local code = line:gsub("%-%-.*$", "")
    if code:find("function", 1, true) then seen_function = true end
    for target in code:gmatch("require%s*%(?%s*[\"']([%w_.]+)[\"']") do
      if target:find("^blockphys") then
        local list = requires[name]
        list[#list + 1] = target
        if not file_of[target] and target ~= "blockphys.core" then
          problem("%s:%d: requires %s, which is no file of %sblockphys", path, n, target, ROOT)
        end
      end
      if seen_function or code:find("^%s") then
        problem("%s:%d: require of %s is not at the top of the file", path, n, target)
      end
    end
  end
end

-- Cycles: depth-first, a module met again while still on the path closes one.
local state, path = {}, {}
local function visit(name)
  if state[name] == "done" then return end
  if state[name] == "open" then
    local cycle, on = {}, false
    for _, m in ipairs(path) do
      if m == name then on = true end
      if on then cycle[#cycle + 1] = m end
    end
    cycle[#cycle + 1] = name
    problem("require cycle: %s", table.concat(cycle, " -> "))
    return
  end
  state[name] = "open"
  path[#path + 1] = name
  for _, target in ipairs(requires[name] or {}) do visit(target) end
  path[#path] = nil
  state[name] = "done"
end
local names = {}
for name in pairs(requires) do names[#names + 1] = name end
table.sort(names)
for _, name in ipairs(names) do visit(name) end

-- The rockspec: each Lua file under its module name, and no other Lua entry.
local listed = {}
for mod, file in read(ROCKSPEC):gmatch('%["(blockphys[%w_.]*)"%]%s*=%s*"([^"]+%.lua)"') do
  listed[mod] = file
  if not file_of[mod] then
    problem("%s: %s = %s, which is no module of %sblockphys", ROCKSPEC, mod, file, ROOT)
  elseif file_of[mod] ~= file then
    problem("%s: %s = %s, not %s", ROCKSPEC, mod, file, file_of[mod])
  end
end
for _, name in ipairs(names) do
  if not listed[name] then problem("%s does not list %s (%s)", ROCKSPEC, name, file_of[name]) end
end

for _, msg in ipairs(problems) do print(msg) end
local edges = 0
for _, list in pairs(requires) do edges = edges + #list end
print(string.format("%d modules, %d requires, %d problems", #names, edges, #problems))
os.exit(#problems == 0 and 0 or 1)
