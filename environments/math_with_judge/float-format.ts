// SymPy's str() of a Float (mpmath's to_str): `dps` significant digits, fixed or scientific notation, zeros stripped when nested.

/** Format a decimal literal as SymPy prints Float(literal): "0.500000000000000", "1.00000000000000e-6", "0.5" when nested. */
export function formatFloat(literal: string, dps: number, stripZeros: boolean): string {
  const m = /^([-+]?)(\d*)\.?(\d*)(?:e([-+]?\d+))?$/i.exec(literal.trim());
  if (!m) return literal;
  const sign = m[1] === "-" ? "-" : "";
  const all = `${m[2]}${m[3]}`;
  const lead = all.length - all.replace(/^0+/, "").length;
  let digits = all.slice(lead).replace(/0+$/, "");
  if (digits === "") return "0.0";
  let exponent = m[2]!.length + Number(m[4] ?? 0) - lead - 1;

  if (digits.length > dps && "56789".includes(digits[dps]!)) {
    let i = dps - 1;
    while (i >= 0 && digits[i] === "9") i--;
    if (i >= 0) digits = digits.slice(0, i) + String(Number(digits[i]) + 1) + "0".repeat(dps - i - 1);
    else {
      digits = `1${"0".repeat(dps - 1)}`;
      exponent += 1;
    }
  } else digits = digits.slice(0, dps).padEnd(dps, "0");

  const minFixed = Math.min(-Math.floor(dps / 3), -5);
  let split = 1;
  if (minFixed < exponent && exponent < dps) {
    if (exponent < 0) digits = "0".repeat(-exponent) + digits;
    else {
      split = exponent + 1;
      if (split > dps) digits += "0".repeat(split - dps);
    }
    exponent = 0;
  }
  let text = `${digits.slice(0, split)}.${digits.slice(split)}`;
  if (stripZeros) {
    text = text.replace(/0+$/, "");
    if (text.endsWith(".")) text += "0";
  }
  if (exponent === 0) return sign + text;
  return `${sign}${text}e${exponent > 0 ? "+" : ""}${exponent}`;
}
