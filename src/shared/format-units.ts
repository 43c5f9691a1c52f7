/**
 * A token amount in base units (a decimal string, a u64) as whole tokens with up to `decimals`
 * digits after the point: ("1500000000", 6) -> "1,500". Exact: no floating point on the way.
 */
export function formatTokenUnits(amount: string, decimals: number): string {
  const digits = amount.replace(/^0+(?=\d)/, '');
  const whole = decimals === 0 ? digits : digits.slice(0, -decimals) || '0';
  const fraction =
    decimals === 0 ? '' : digits.slice(-decimals).padStart(decimals, '0').replace(/0+$/, '');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction ? `${grouped}.${fraction}` : grouped;
}
