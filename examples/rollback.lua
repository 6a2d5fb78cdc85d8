-- Client-side prediction with server reconciliation (rollback), on one machine:
-- a server world and a client world built alike, a simulated network between them
-- with latency and jitter (docs/rollback.md).
--
--   * The client runs its player from local input at once (prediction) and sends each
--     tick's input to the server, which receives it a few ticks late.
--   * The server runs the authoritative world, BUFFER ticks behind. An input that has
--     not arrived when its tick runs is guessed (the last one it used): the server's
--     state then differs from the client's prediction.
--   * Every tick the server sends its state (an encoded snapshot) and its hash. When
--     the hash differs from the one the client predicted for that tick, the client
--     restores the server's state and replays its own inputs since then.
--
-- It prints the mispredictions corrected and the final hashes of both worlds, equal.
-- Run from the checkout: lua5.4 examples/rollback.lua
local bp = require "blockphys"

local atan2 = math.atan2 or math.atan -- luacheck: ignore 143 (5.1 and LuaJIT: atan2)
local TICKS, LATENCY, JITTER = 200, 3, 4 -- ticks; one-way delay LATENCY .. LATENCY + JITTER
-- The server runs tick t at time t + BUFFER, so that inputs up to BUFFER ticks late
-- are in time; later ones are guessed.
local BUFFER = 5

-- A deterministic PRNG (Park-Miller): the same numbers on every Lua.
local function rng(seed)
  return function(n)
    seed = (seed * 16807) % 2147483647
    return seed % n
  end
end

-- The same world on both sides: a floor, a step, a pool, the player and a mob.
local function build()
  local w = bp.World()
  w:define_block{ name = "stone" }
  w:define_block{ name = "water", boxes = {}, liquid = "water" }
  w:fill(-16, 0, -16, 15, 0, 15, "stone")
  w:fill(4, 1, -3, 8, 1, 3, "stone")
  w:fill(-8, 1, 4, -4, 1, 8, "water")
  local player = w:spawn{ x = 0.5, y = 1, z = 0.5 }
  local mob = w:spawn{ x = 3.5, y = 1, z = 3.5 }
  return w, player, mob
end

-- One tick of a world: the player's input, the mob chasing the player (a function of
-- the state only, so both sides compute the same), then the step.
local function tick(w, player, mob, input)
  player.forward, player.strafe, player.yaw = input.forward, input.strafe, input.yaw
  player.jumping = input.jump
  local dx, dz = player.x - mob.x, player.z - mob.z
  mob.yaw = math.deg(atan2(-dx, dz)) -- toward the player (docs/conventions.md)
  mob.forward = (dx * dx + dz * dz > 4) and 1 or 0
  w:step()
  w:events() -- read every tick, as a game does
end

-- The player's input at tick t: walks and turns, jumps now and then.
local roll = rng(34)
local function local_input(t)
  return { forward = (t % 50 < 40) and 1 or 0, strafe = (t % 30 < 10) and 1 or 0,
           yaw = (t * 7) % 360 - 180, jump = roll(10) == 0 }
end

-- The network: messages delivered at a tick, with seeded latency and jitter.
local delay = rng(7)
local in_flight = {}
local function send(to, now, msg)
  msg.to, msg.at = to, now + LATENCY + delay(JITTER + 1)
  in_flight[#in_flight + 1] = msg
end
local function receive(to, now)
  local got, rest = {}, {}
  for _, m in ipairs(in_flight) do
    if m.to == to and m.at <= now then got[#got + 1] = m else rest[#rest + 1] = m end
  end
  in_flight = rest
  table.sort(got, function(a, b) return a.tick < b.tick end)
  return got
end

local server = { inputs = {} }
server.w, server.player, server.mob = build()
local client = { inputs = {}, predicted = {}, confirmed = 0 }
client.w, client.player, client.mob = build()
local guessed, corrected, checked = 0, 0, 0

-- The server at time `now`: the inputs that arrived, its tick t = now - BUFFER, its
-- state sent.
local function server_tick(now)
  for _, m in ipairs(receive("server", now)) do server.inputs[m.tick] = m.input end
  local t = now - BUFFER
  if t < 1 or t > TICKS then return end
  local input = server.inputs[t]
  if not input then -- late: guess the last input received
    guessed = guessed + 1
    input = server.last or { forward = 0, strafe = 0, yaw = 0, jump = false }
  end
  server.last = input
  tick(server.w, server.player, server.mob, input)
  send("client", now, { tick = t, state = server.w:snapshot():encode(), hash = server.w:hash() })
end

-- The client's reconciliation: each server state newer than the last one checked.
local function client_receive(now)
  for _, m in ipairs(receive("client", now)) do
    if m.tick > client.confirmed then
      client.confirmed = m.tick
      checked = checked + 1
      if m.hash ~= client.predicted[m.tick] then
        corrected = corrected + 1
        client.w:restore(assert(bp.decode_snapshot(m.state)))
        for t = m.tick + 1, client.now do -- replay the inputs since then
          tick(client.w, client.player, client.mob, client.inputs[t])
          client.predicted[t] = client.w:hash()
        end
      end
    end
  end
end

for now = 1, TICKS do
  client.now = now
  local input = local_input(now)
  client.inputs[now] = input
  send("server", now, { tick = now, input = input })
  tick(client.w, client.player, client.mob, input) -- predicted at once
  client.predicted[now] = client.w:hash()
  server_tick(now)
  client_receive(now)
end
-- The server catches up; the last states arrive.
local now = TICKS
while client.confirmed < TICKS do
  now = now + 1
  server_tick(now)
  client_receive(now)
end

print(("%d ticks, latency %d..%d ticks: the server guessed %d late inputs"):format(
  TICKS, LATENCY, LATENCY + JITTER, guessed))
print(("client: %d server states checked, %d mispredictions corrected (restore and replay)"):format(
  checked, corrected))
print(("player at server (%.4f, %.4f, %.4f), client (%.4f, %.4f, %.4f)"):format(
  server.player.x, server.player.y, server.player.z, client.player.x, client.player.y, client.player.z))
local hs, hc = server.w:hash(), client.w:hash()
print(("final hashes: server %s, client %s: %s"):format(hs, hc, hs == hc and "equal" or "DIFFERENT"))
if hs ~= hc then os.exit(1) end
