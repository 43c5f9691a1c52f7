export function ShopPage() {
  return <div />;
}
