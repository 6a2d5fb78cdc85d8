-- Checks the C layout that docs/architecture.md promises, on a built tree:
--   * no circle among the C files' calls (from `nm` on the objects: file A calls B when
--     A uses a symbol B defines), the core's and the binding's;
--   * no circle among the #include lines (each file's project includes);
--   * no file of csrc/core includes a Lua header, and none includes a binding header;
--   * the public headers (PUBLIC below, what make install-lib installs) include no
--     internal one, and of the binding only the files of LAYOUT_ALLOWED include a
--     header with the core's struct layouts (the rest uses the public API and the
--     layout-free internal interface of bp_internal.h);
--   * given the shared library, it exports exactly the functions and data that the
--     public headers declare (nm -D --defined-only against the declarations).
-- (tools/check_requires.lua checks the Lua modules.)
-- Usage: lua tools/check_structure.lua [objdir [libblockphys.so]]
--   (default build/obj; run `make`, and `make lib` for the export check, first)
local objdir = arg[1] or "build/obj"
local shared = arg[2]

-- The installed headers (Makefile's PUB_HEADERS).
local PUBLIC = {"blockphys.h", "bp_aabb.h", "bp_base.h", "bp_rules.h", "bp_types.h"}
-- The core's headers with struct layouts, and bp_internal.h (no layout).
local LAYOUT = {["bp_world.h"] = true, ["bp_entity.h"] = true, ["bp_events.h"] = true,
  ["bp_sensor.h"] = true, ["bp_broadphase.h"] = true}
-- The binding files that may include a layout header: the hot paths (lfields.c writes
-- entity fields by offsetof, lffi.c hands LuaJIT pointers into the pools, lstep.c
-- runs the hooks, lloop.c reads and writes every entity's position and inputs in one
-- call).
local LAYOUT_ALLOWED = {["lfields.c"] = true, ["lffi.c"] = true, ["lstep.c"] = true,
  ["lloop.c"] = true}

local function lines(cmd)
  local p = assert(io.popen(cmd))
  local out = {}
  for l in p:lines() do out[#out + 1] = l end
  p:close()
  return out
end

local function basename(path)
  return (path:gsub("^.*/", ""):gsub("%.[ch]$", ""):gsub("%.o$", ""))
end

-- Tarjan's strongly connected components: every component of more than one node is
-- a circle.
local function circles(graph)
  local index, low, onstack, stack, found, n = {}, {}, {}, {}, {}, 0
  local function visit(v)
    n = n + 1
    index[v], low[v] = n, n
    stack[#stack + 1] = v
    onstack[v] = true
    for w in pairs(graph[v] or {}) do
      if not index[w] then
        visit(w)
        if low[w] < low[v] then low[v] = low[w] end
      elseif onstack[w] and index[w] < low[v] then
        low[v] = index[w]
      end
    end
    if low[v] == index[v] then
      local comp = {}
      repeat
        local w = table.remove(stack)
        onstack[w] = nil
        comp[#comp + 1] = w
      until w == v
      if #comp > 1 then
        table.sort(comp)
        found[#found + 1] = table.concat(comp, " <-> ")
      end
    end
  end
  local nodes = {}
  for v in pairs(graph) do nodes[#nodes + 1] = v end
  table.sort(nodes)
  for _, v in ipairs(nodes) do
    if not index[v] then visit(v) end
  end
  return found
end

local problems = {}

-- Calls.
local objects = lines("ls " .. objdir .. "/core/*.o " .. objdir .. "/binding/*.o 2>/dev/null")
if #objects == 0 then
  io.stderr:write("check_structure: no objects under " .. objdir .. " (run make first)\n")
  os.exit(2)
end
local defined, uses = {}, {}
for _, o in ipairs(objects) do
  local name = basename(o)
  uses[name] = {}
  for _, l in ipairs(lines("nm " .. o)) do
    local kind, sym = l:match("^%x*%s+(%a)%s+(%S+)$")
    if kind == "U" then
      uses[name][sym] = true
    elseif kind and kind:match("[TDBR]") then
      defined[sym] = name
    end
  end
end
local calls = {}
for name, syms in pairs(uses) do
  calls[name] = {}
  for sym in pairs(syms) do
    local owner = defined[sym]
    if owner and owner ~= name then calls[name][owner] = true end
  end
end
for _, c in ipairs(circles(calls)) do problems[#problems + 1] = "call circle: " .. c end

-- The core's includes: no Lua header, no binding header.
local files = lines("ls csrc/core/*.[ch] csrc/core/include/*.h csrc/binding/*.[ch]")
for _, f in ipairs(files) do
  if f:match("^csrc/core/") then
    for l in io.lines(f) do
      local any = l:match('^%s*#%s*include%s+"([^"]+)"') or l:match("^%s*#%s*include%s+<([^>]+)>")
      if any and (any:match("^lua") or any:match("lauxlib") or any:match("^lbp")) then
        problems[#problems + 1] = f .. " includes " .. any .. " (the core is Lua-free)"
      end
    end
  end
end
-- Include circles: a .c file is never included, so only header-to-header edges can
-- close one.
local headers = {}
for _, f in ipairs(files) do
  if f:match("%.h$") then
    local name = basename(f)
    headers[name] = {}
    for l in io.lines(f) do
      local quoted = l:match('^%s*#%s*include%s+"([^"]+)"')
      if quoted and basename(quoted) ~= name then headers[name][basename(quoted)] = true end
    end
  end
end
for _, c in ipairs(circles(headers)) do problems[#problems + 1] = "include circle: " .. c end

-- The public headers include only public headers (and system ones).
local public = {}
for _, h in ipairs(PUBLIC) do public[h] = true end
for _, h in ipairs(PUBLIC) do
  for l in io.lines("csrc/core/include/" .. h) do
    local quoted = l:match('^%s*#%s*include%s+"([^"]+)"')
    if quoted and not public[quoted] then
      problems[#problems + 1] = "public header " .. h .. " includes " .. quoted .. " (not public)"
    end
  end
end
-- Only the allowed binding files see the layouts.
local nallowed = 0
for _, f in ipairs(files) do
  local name = f:match("^csrc/binding/(.+)$")
  if name then
    for l in io.lines(f) do
      local quoted = l:match('^%s*#%s*include%s+"([^"]+)"')
      if quoted and LAYOUT[quoted] and not LAYOUT_ALLOWED[name] then
        problems[#problems + 1] = f .. " includes " .. quoted .. " (a layout: only "
          .. "LAYOUT_ALLOWED of tools/check_structure.lua may)"
      end
    end
    if LAYOUT_ALLOWED[name] then nallowed = nallowed + 1 end
  end
end

-- The shared library exports exactly what the public headers declare.
local nexported = 0
if shared then
  local declared = {}
  for _, h in ipairs(PUBLIC) do
    for l in io.lines("csrc/core/include/" .. h) do
      if not l:match("^[%s/*#]") and not l:match("^static") and not l:match("^typedef") then
        local name = l:match("[%s*](bp_[%w_]+)%s*%(") or l:match("^extern .-(bp_[%w_]+)%s*%[")
        if name then declared[name] = true end
      end
    end
  end
  local exported = {}
  for _, l in ipairs(lines("nm -D --defined-only " .. shared)) do
    local sym = l:match("^%x*%s+%a%s+(%S+)$")
    if sym then exported[sym] = true end
  end
  for name in pairs(declared) do
    if not exported[name] then
      problems[#problems + 1] = shared .. " does not export " .. name .. " (declared public)"
    end
  end
  for sym in pairs(exported) do
    nexported = nexported + 1
    if not declared[sym] then
      problems[#problems + 1] = shared .. " exports " .. sym .. ", which no public header declares"
    end
  end
end

local ncalls, nfiles = 0, 0
for _, to in pairs(calls) do
  nfiles = nfiles + 1
  for _ in pairs(to) do ncalls = ncalls + 1 end
end
if #problems > 0 then
  for _, p in ipairs(problems) do print(p) end
  print(("%d C files, %d call edges, %d problems"):format(nfiles, ncalls, #problems))
  os.exit(1)
end
print(("%d C files, %d call edges between them, no circle; the core includes no Lua "
  .. "or binding header; %d binding files may see the layouts"):format(nfiles, ncalls, nallowed))
if shared then
  print(("%s exports exactly the %d symbols the public headers declare"):format(shared, nexported))
end
