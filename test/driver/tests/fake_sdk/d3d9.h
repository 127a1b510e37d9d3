/* stand-in for the Windows SDK header */
#pragma once
typedef struct IDirect3DSurface9 IDirect3DSurface9;
typedef void *HANDLE;
typedef unsigned int UINT;
