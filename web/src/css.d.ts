/** Style sheets imported by components: Bun's bundler adds them to the page's CSS. */
declare module '*.css';
