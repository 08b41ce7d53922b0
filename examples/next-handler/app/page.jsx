export default function Home() {
  return (
    <main>
      <h1>Home</h1>
      <p>
        The sitemaps are at <a href="/sitemap.xml">/sitemap.xml</a>, served from the database at request time.
      </p>
    </main>
  );
}
