--- Options tables of the loaders (`blockphys.nbt.decode`, `blockphys.schematic.load`).
--
-- A leaf module: both loaders check their options alike, and neither loads the
-- other for it. Source: our own.
--
-- @module blockphys.options
-- @local

local options = {}

--- A message naming a key of `opts` other than `allowed`, or nil (also for a nil
-- `opts`). A misspelt option would otherwise be ignored silently. Keys are read raw
-- (`next`): no metamethod runs. Of several, the name that sorts first is reported,
-- so that the message does not depend on the table's hash order.
-- @tparam table|nil opts
-- @tparam string allowed the one key the loader takes
-- @treturn string|nil e.g. `"unknown option maxbytes (only max_bytes)"`
function options.unknown(opts, allowed)
  local worst
  local k = opts and next(opts)
  while k ~= nil do
    if k ~= allowed then
      local name = type(k) == "string" and k or "of type " .. type(k)
      if not worst or name < worst then worst = name end
    end
    k = next(opts, k)
  end
  return worst and string.format("unknown option %s (only %s)", worst, allowed)
end

return options
