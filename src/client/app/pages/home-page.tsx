export function HomePage() {
  return <div id="home" />;
}
