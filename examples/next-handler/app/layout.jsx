export const metadata = { title: 'sitemapkit in a Next.js route handler' };

export default function RootLayout({ children }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
