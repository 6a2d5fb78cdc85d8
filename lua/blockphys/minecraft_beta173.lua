--- `blockphys.minecraft_beta173`, the first name of `blockphys.minecraft.beta173`
-- (README and scripts require it): the same module table, not a copy, so that
-- `require "blockphys.minecraft_beta173" == bp.minecraft.beta173`.
-- @module blockphys.minecraft_beta173
return require "blockphys.minecraft.beta173"
