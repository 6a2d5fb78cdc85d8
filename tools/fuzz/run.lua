--- The attack suite: `make fuzz` (FUZZ=full, minutes) or `make fuzz FUZZ=short`
-- (CI, well under a minute). Runs each group (files, misuse, exhaust) in a process of
-- its own under `timeout`, so that a crash or a hang is reported with the case that
-- was running, and prints one closing line: "fuzz: N passed, M failed".
--
-- Usage (from the checkout, after `make`): lua5.4 tools/fuzz/run.lua [short|full]
--
-- Source: our own.

local mode = arg[1] or "full"
assert(mode == "short" or mode == "full", "usage: run.lua [short|full]")
local lua = os.getenv("LUA") or "lua5.4"
local GROUPS = { "files", "misuse", "exhaust" }
local LIMIT = mode == "full" and 3600 or 120 -- seconds per group process

local passed, failed = 0, 0
local t0 = os.time()
for _, group in ipairs(GROUPS) do
  local cmd = string.format("timeout %d %s tools/fuzz/group.lua %s %s 2>&1", LIMIT, lua, group, mode)
  local p = assert(io.popen(cmd, "r"))
  local running, closed
  for line in p:lines() do
    local name = line:match("^START (.*)$")
    if name then
      running = name
    else
      print(line)
      if line:match("^ok ") then passed, running = passed + 1, nil
      elseif line:match("^FAIL ") then failed, running = failed + 1, nil
      elseif line:match("^" .. group .. ": %d+ passed") then closed = true end
    end
  end
  local _, how, code = p:close()
  if not closed or (how == "exit" and code ~= 0 and code ~= 1) or how == "signal" then
    failed = failed + 1
    print(string.format("FAIL  %s: the process ended (%s %s)%s%s", group, tostring(how), tostring(code),
      running and (" while running " .. running) or "", code == 124 and " (timeout)" or ""))
  end
end
print(string.format("fuzz (%s, %d s): %d passed, %d failed", mode, os.time() - t0, passed, failed))
os.exit(failed == 0 and 0 or 1)
