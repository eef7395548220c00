"""Site-wide pages and the JSON error pages of the API."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.defaults import page_not_found as html_page_not_found
from django.views.defaults import server_error as html_server_error

from wizardsite.api import error_body


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html")


def api_not_found(request: HttpRequest) -> JsonResponse:
    return JsonResponse(error_body("not_found", "There is no such API endpoint."), status=404)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if request.path.startswith("/api/"):
        return api_not_found(request)
    return html_page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    if request.path.startswith("/api/"):
        return JsonResponse(error_body("server_error", "Something went wrong."), status=500)
    return html_server_error(request)
